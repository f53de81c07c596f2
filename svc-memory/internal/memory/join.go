package memory

import (
	"context"
	"math"
	"slices"
)

// join reads the best limit candidates from the store, normalises rel to
// the best one and sets the reported score.
func (s *Service) join(ctx context.Context, ws string, cs *candidates, limit int) ([]scored, error) {
	if cs == nil {
		return nil, nil
	}
	cands := cs.cands
	order := slices.Clone(cs.order)
	slices.SortStableFunc(order, func(a, b string) int {
		return -cmpFloat(cands[a].rel, cands[b].rel)
	})
	order = order[:min(len(order), limit)]
	ids := make([]string, 0, len(order))
	for _, id := range order {
		if rid, ok := recordIDOf(ws, id); ok {
			ids = append(ids, rid)
		}
	}
	stored, err := s.Store.FindByIDs(ctx, ws, ids)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]Stored, len(stored))
	for _, j := range stored {
		byID[j.RecordID] = j
	}
	out := make([]scored, 0, len(order))
	for _, id := range order {
		rid, _ := recordIDOf(ws, id)
		if j, ok := byID[rid]; ok {
			c := *cands[id]
			c.Stored = j
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return out, nil
	}
	best := out[0].rel
	strength := math.Max(math.Max(out[0].cos, 0), out[0].cov)
	for i := range out {
		if best > 0 {
			out[i].rel /= best
		}
		out[i].score = out[i].rel * strength
	}
	return out, nil
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
