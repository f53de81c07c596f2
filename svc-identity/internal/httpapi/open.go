package httpapi

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// decodeOpen decodes an object that may carry keys beyond the fields of
// known (a pointer to a struct without its own UnmarshalJSON). It returns
// those other keys, minus the ignored ones, with numbers as int64 or
// float64 so they store as BSON numbers. Key names were already checked for
// '$' and '.' by api.Decode.
func decodeOpen(b []byte, known any, ignored ...string) (map[string]any, error) {
	if err := json.Unmarshal(b, known); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var all map[string]any
	if err := dec.Decode(&all); err != nil {
		return nil, err
	}
	names := fieldNames(reflect.TypeOf(known).Elem())
	var extra map[string]any
	for k, v := range all {
		if names[k] || slices.Contains(ignored, k) {
			continue
		}
		if extra == nil {
			extra = map[string]any{}
		}
		extra[k] = plainNumbers(v)
	}
	return extra, nil
}

var namesCache sync.Map // reflect.Type → map[string]bool

// fieldNames are the JSON names of t's fields.
func fieldNames(t reflect.Type) map[string]bool {
	if v, ok := namesCache.Load(t); ok {
		return v.(map[string]bool)
	}
	names := map[string]bool{}
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			names[name] = true
		}
	}
	namesCache.Store(t, names)
	return names
}

// plainNumbers replaces json.Number by int64 when integral, else float64.
func plainNumbers(v any) any {
	switch t := v.(type) {
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		f, _ := t.Float64()
		return f
	case map[string]any:
		for k, child := range t {
			t[k] = plainNumbers(child)
		}
	case []any:
		for i, child := range t {
			t[i] = plainNumbers(child)
		}
	}
	return v
}
