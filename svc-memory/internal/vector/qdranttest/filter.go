package qdranttest

import (
	"slices"

	"github.com/qdrant/go-client/qdrant"
)

// matchFilter evaluates a Qdrant filter: all of must, none of must_not, at
// least one of should (when present). Unsupported conditions are errors.
func matchFilter(f *qdrant.Filter, p *point) (bool, error) {
	if f == nil {
		return true, nil
	}
	if f.MinShould != nil {
		return false, invalid("qdranttest: min_should is not supported")
	}
	for _, c := range f.GetMust() {
		ok, err := matchCondition(c, p)
		if err != nil || !ok {
			return false, err
		}
	}
	for _, c := range f.GetMustNot() {
		ok, err := matchCondition(c, p)
		if err != nil || ok {
			return false, err
		}
	}
	if len(f.GetShould()) == 0 {
		return true, nil
	}
	for _, c := range f.GetShould() {
		ok, err := matchCondition(c, p)
		if err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

func matchCondition(c *qdrant.Condition, p *point) (bool, error) {
	switch v := c.GetConditionOneOf().(type) {
	case *qdrant.Condition_Field:
		return matchField(v.Field, p)
	case *qdrant.Condition_Filter:
		return matchFilter(v.Filter, p)
	case *qdrant.Condition_HasId:
		for _, id := range v.HasId.GetHasId() {
			if proto, err := pointKey(id); err == nil {
				if own, _ := pointKey(p.id); own == proto {
					return true, nil
				}
			}
		}
		return false, nil
	}
	return false, invalid("qdranttest: unsupported condition %T", c.GetConditionOneOf())
}

// matchField handles match (keyword, keywords, except keywords, integer)
// and range conditions on top-level payload keys.
func matchField(fc *qdrant.FieldCondition, p *point) (bool, error) {
	val, present := p.payload[fc.GetKey()]
	switch {
	case fc.GetMatch() != nil:
		return matchValue(fc.GetMatch(), val, present)
	case fc.GetRange() != nil:
		if !present {
			return false, nil
		}
		return inRange(fc.GetRange(), val), nil
	}
	return false, invalid("qdranttest: unsupported field condition on %q", fc.GetKey())
}

func matchValue(m *qdrant.Match, val *qdrant.Value, present bool) (bool, error) {
	str, isStr := val.GetKind().(*qdrant.Value_StringValue)
	switch v := m.GetMatchValue().(type) {
	case *qdrant.Match_Keyword:
		return present && isStr && str.StringValue == v.Keyword, nil
	case *qdrant.Match_Keywords:
		return present && isStr && slices.Contains(v.Keywords.GetStrings(), str.StringValue), nil
	case *qdrant.Match_ExceptKeywords:
		return !present || !isStr || !slices.Contains(v.ExceptKeywords.GetStrings(), str.StringValue), nil
	case *qdrant.Match_Integer:
		i, isInt := val.GetKind().(*qdrant.Value_IntegerValue)
		return present && isInt && i.IntegerValue == v.Integer, nil
	}
	return false, invalid("qdranttest: unsupported match %T", m.GetMatchValue())
}

func inRange(r *qdrant.Range, val *qdrant.Value) bool {
	var x float64
	switch v := val.GetKind().(type) {
	case *qdrant.Value_IntegerValue:
		x = float64(v.IntegerValue)
	case *qdrant.Value_DoubleValue:
		x = v.DoubleValue
	default:
		return false
	}
	return (r.Lt == nil || x < r.GetLt()) && (r.Gt == nil || x > r.GetGt()) &&
		(r.Lte == nil || x <= r.GetLte()) && (r.Gte == nil || x >= r.GetGte())
}
