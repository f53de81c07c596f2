package api

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// requestTypes records every type a request body was decoded into, so a
// test can check that each of their arrays is bounded (UnboundedArrays).
var requestTypes sync.Map // reflect.Type → struct{}

func recordRequestType(t reflect.Type) { requestTypes.LoadOrStore(t, struct{}{}) }

// UnboundedArrays lists, for every type a request body was decoded into in
// this process, the array fields reachable from it that have no maximum
// named after a registered limit (validate:"max=@name"). A literal maximum
// is listed too: only a named one is in the limit tables the API reference
// is checked against. testenv.Main fails a test binary whose requests
// reach such a field, so the rule holds for every operation some test
// calls. json.RawMessage (free-form JSON) is not an array field.
func UnboundedArrays() []string {
	seen := map[reflect.Type]bool{}
	var out []string
	requestTypes.Range(func(k, _ any) bool {
		t := k.(reflect.Type)
		out = append(out, unboundedIn(t, typeName(t), seen)...)
		return true
	})
	slices.Sort(out)
	return out
}

var rawJSON = reflect.TypeFor[[]byte]() // json.RawMessage and other byte slices

// unboundedIn walks t's fields; seen stops at a struct already walked.
func unboundedIn(t reflect.Type, path string, seen map[reflect.Type]bool) []string {
	if t = shaped(t); t == nil { // free-form JSON
		return nil
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map:
		return unboundedIn(t.Elem(), path+"[]", seen)
	case reflect.Struct:
	default:
		return nil
	}
	if seen[t] {
		return nil
	}
	seen[t] = true
	var out []string
	for _, r := range rulesFor(t) {
		f := t.Field(r.index)
		ft := shaped(f.Type)
		if ft == nil {
			continue
		}
		where := path + "." + r.name
		if ft.Kind() == reflect.Slice && !ft.ConvertibleTo(rawJSON) {
			if !strings.HasPrefix(maxRule(f), "@") {
				out = append(out, fmt.Sprintf("%s (%s): no max=@limit", where, ft))
			}
		}
		out = append(out, unboundedIn(ft, where, seen)...)
	}
	return out
}

// maxRule is the value of the field's max= rule, "" without one.
func maxRule(f reflect.StructField) string {
	for _, part := range strings.Split(f.Tag.Get("validate"), ",") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(part), "max="); ok {
			return v
		}
	}
	return ""
}

func derefType(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

func typeName(t reflect.Type) string {
	t = derefType(t)
	if t.Name() == "" {
		return t.String()
	}
	return t.PkgPath() + "." + t.Name()
}
