package yjs

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"unicode/utf8"

	"github.com/opencollab/backend/svc-content/internal/yjs/lib0"
)

// SubDoc is a subdocument (Yjs ContentDoc): this engine keeps its guid and
// options and never loads it.
type SubDoc struct {
	GUID string
	// GC false, AutoLoad and Meta are the options Yjs keeps with it.
	GC       bool
	AutoLoad bool
	Meta     any
}

func (s *SubDoc) opts() lib0.Object {
	c := newContentDoc(s.GUID, nil)
	if !s.GC {
		c.opts = append(c.opts, lib0.Field{Key: "gc", Value: false})
	}
	if s.AutoLoad {
		c.opts = append(c.opts, lib0.Field{Key: "autoLoad", Value: true})
	}
	if s.Meta != nil {
		if m, err := normalizeValue(s.Meta, 0); err == nil {
			c.opts = append(c.opts, lib0.Field{Key: "meta", Value: m})
		}
	}
	return c.opts
}

func subDocOf(c *contentDoc) *SubDoc {
	s := &SubDoc{GUID: c.guid, GC: true}
	for _, f := range c.opts {
		switch f.Key {
		case "gc":
			s.GC = false
		case "autoLoad":
			s.AutoLoad = true
		case "meta":
			s.Meta = jsonValue(f.Value)
		}
	}
	return s
}

const maxValueDepth = 1000

// normalizeValue converts a Go value to the lib0 value model: numbers to
// float64, maps to lib0.Object (in JavaScript's key order), slices to []any.
func normalizeValue(v any, depth int) (any, error) {
	if depth > maxValueDepth {
		return nil, errors.New("yjs: value nested too deeply")
	}
	switch t := v.(type) {
	case nil, bool, lib0.UndefinedValue, lib0.BigInt:
		return t, nil
	case string:
		if !utf8.ValidString(t) {
			return nil, errors.New("yjs: string is not valid UTF-8")
		}
		return t, nil
	case []byte:
		return append([]byte{}, t...), nil
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			n, err := normalizeValue(x, depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = n
		}
		return out, nil
	case lib0.Object:
		var b lib0.ObjectBuilder
		for _, f := range t {
			n, err := normalizeValue(f.Value, depth+1)
			if err != nil {
				return nil, err
			}
			b.Set(f.Key, n)
		}
		return b.Object(), nil
	case map[string]any:
		return normalizeValue(lib0.ObjectFromMap(t), depth)
	case json.Number:
		if f, ok := lib0.Number(t); ok {
			return f, nil
		}
		return nil, fmt.Errorf("yjs: number %s cannot be stored", t)
	}
	if f, ok := lib0.Number(v); ok {
		return f, nil
	}
	if branchOf(v) != nil {
		return nil, errors.New("yjs: a shared type cannot be nested inside a JSON value")
	}
	return normalizeReflect(v, depth)
}

// normalizeReflect handles other slices and string-keyed maps (input only).
func normalizeReflect(v any, depth int) (any, error) {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		out := make([]any, rv.Len())
		for i := range out {
			n, err := normalizeValue(rv.Index(i).Interface(), depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = n
		}
		return out, nil
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			break
		}
		m := make(map[string]any, rv.Len())
		for it := rv.MapRange(); it.Next(); {
			m[it.Key().String()] = it.Value().Interface()
		}
		return normalizeValue(m, depth)
	}
	return nil, fmt.Errorf("yjs: cannot store a value of type %T", v)
}

// contentValues is getContent: the values an item holds.
func contentValues(c content) []any {
	switch t := c.(type) {
	case *contentAny:
		return t.vals
	case *contentJSON:
		return t.vals
	case *contentBinary:
		return []any{t.b}
	case *contentEmbed:
		return []any{t.v}
	case *contentType:
		return []any{t.t.public()}
	case *contentDoc:
		return []any{subDocOf(t)}
	case *contentString:
		return stringUnits(t)
	}
	return nil
}

// stringUnits is ContentString.getContent: one string per UTF-16 unit (a
// character outside the BMP gives two U+FFFD, its halves).
func stringUnits(c *contentString) []any {
	out := make([]any, 0, c.units)
	for _, r := range string(c.s) {
		if r >= 0x10000 {
			out = append(out, "\uFFFD", "\uFFFD")
			continue
		}
		out = append(out, string(r))
	}
	return out
}

// jsonValue is a value as JSON.parse(JSON.stringify(v)) gives it, in Go:
// objects become map[string]any, shared types their toJSON(), undefined
// null in arrays (and dropped from objects); bytes stay []byte.
func jsonValue(v any) any {
	switch t := v.(type) {
	case lib0.UndefinedValue:
		return nil
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = jsonValue(x)
		}
		return out
	case lib0.Object:
		m := make(map[string]any, len(t))
		for _, f := range t {
			if _, undef := f.Value.(lib0.UndefinedValue); !undef {
				m[f.Key] = jsonValue(f.Value)
			}
		}
		return m
	case jsonner:
		return t.ToJSON()
	}
	return v
}

// jsonner is what shared types implement.
type jsonner interface{ ToJSON() any }

// strictEqual is JavaScript's ===: primitives by value, objects, arrays and
// bytes by identity.
func strictEqual(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case lib0.UndefinedValue:
		_, ok := b.(lib0.UndefinedValue)
		return ok
	case bool, string, float64, lib0.BigInt:
		return a == b
	case lib0.Object:
		y, ok := b.(lib0.Object)
		return ok && len(x) > 0 && len(x) == len(y) && &x[0] == &y[0]
	case []any:
		y, ok := b.([]any)
		return ok && len(x) > 0 && len(x) == len(y) && &x[0] == &y[0]
	case []byte:
		y, ok := b.([]byte)
		return ok && len(x) > 0 && len(x) == len(y) && &x[0] == &y[0]
	}
	return false
}

// equalAttrs is YText's equalAttrs: equal values, or objects with equal
// keys holding strictly equal values.
func equalAttrs(a, b any) bool {
	if strictEqual(a, b) {
		return true
	}
	ka, oka := flatKeys(a)
	kb, okb := flatKeys(b)
	if !oka || !okb || len(ka) != len(kb) {
		return false
	}
	for _, f := range ka {
		other, has := lookupFlat(kb, f.Key)
		if _, undef := f.Value.(lib0.UndefinedValue); undef && !has {
			return false
		}
		if !strictEqual(other, f.Value) {
			return false
		}
	}
	return true
}

// flatKeys lists an object's (or array's) own properties.
func flatKeys(v any) (lib0.Object, bool) {
	switch t := v.(type) {
	case lib0.Object:
		return t, true
	case []any:
		o := make(lib0.Object, len(t))
		for i, x := range t {
			o[i] = lib0.Field{Key: itoa(i), Value: x}
		}
		return o, true
	case []byte:
		o := make(lib0.Object, len(t))
		for i, x := range t {
			o[i] = lib0.Field{Key: itoa(i), Value: float64(x)}
		}
		return o, true
	}
	return nil, false
}

func lookupFlat(o lib0.Object, key string) (any, bool) {
	v, ok := o.Get(key)
	if !ok {
		return lib0.Undefined, false
	}
	return v, true
}

func itoa(i int) string { return strconv.Itoa(i) }
