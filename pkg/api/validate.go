package api

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
)

// Validate checks `validate` struct tags on v (a pointer to a struct) and on
// every nested struct, slice element and map value. Rules, comma separated:
//
//	required   string non-blank, slice/map non-empty, pointer non-nil
//	max=N      at most N characters (string) or items (slice, map); N may
//	           be @Name of a registered Limit (limits.go)
//	min=N      at least N items, or a number at least N
//	oneof=a b  the string (or each string of a slice) is one of the words
//
// The first failure is an INVALID_ARGUMENT *Error naming the JSON field.
func Validate(v any) error {
	rv := reflect.ValueOf(v)
	if msg := validateValue(rv, ""); msg != "" {
		return &Error{Status: InvalidArgument, Message: msg}
	}
	return nil
}

type fieldRule struct {
	index    int
	name     string
	required bool
	max, min int
	hasMax   bool
	hasMin   bool
	oneof    []string
}

var rulesCache sync.Map // reflect.Type → []fieldRule

func rulesFor(t reflect.Type) []fieldRule {
	if r, ok := rulesCache.Load(t); ok {
		return r.([]fieldRule)
	}
	var rules []fieldRule
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name := f.Name
		if tag := f.Tag.Get("json"); tag != "" {
			if n, _, _ := strings.Cut(tag, ","); n == "-" {
				continue
			} else if n != "" {
				name = n
			}
		}
		r := fieldRule{index: i, name: name}
		for _, part := range strings.Split(f.Tag.Get("validate"), ",") {
			key, val, _ := strings.Cut(strings.TrimSpace(part), "=")
			switch key {
			case "required":
				r.required = true
			case "max":
				r.max = limitValue(val)
				r.hasMax = true
			case "min":
				r.min = limitValue(val)
				r.hasMin = true
			case "oneof":
				r.oneof = strings.Fields(val)
			}
		}
		rules = append(rules, r)
	}
	rulesCache.Store(t, rules)
	return rules
}

func validateValue(v reflect.Value, path string) string {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return ""
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Struct:
		for _, r := range rulesFor(v.Type()) {
			if msg := checkField(v.Field(r.index), r, joinField(path, r.name)); msg != "" {
				return msg
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if msg := validateValue(v.Index(i), fmt.Sprintf("%s[%d]", path, i)); msg != "" {
				return msg
			}
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			if msg := validateValue(iter.Value(), joinField(path, fmt.Sprint(iter.Key()))); msg != "" {
				return msg
			}
		}
	}
	return ""
}

func joinField(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// Wrapper is a field type holding its decoded JSON value inside (an
// optional[T] of a partial update); Validate applies the field's rules to
// Wrapped, so a wrapped array keeps its maximum.
type Wrapper interface{ Wrapped() any }

func checkField(f reflect.Value, r fieldRule, path string) string {
	if w, ok := asWrapper(f); ok {
		f = reflect.ValueOf(w.Wrapped())
		if !f.IsValid() {
			return ""
		}
	}
	if r.required && isMissing(f) {
		return fmt.Sprintf("field %s is required", path)
	}
	for f.Kind() == reflect.Pointer {
		if f.IsNil() {
			return ""
		}
		f = f.Elem()
	}
	switch f.Kind() {
	case reflect.String:
		s := f.String()
		if r.hasMax && len([]rune(s)) > r.max {
			return fmt.Sprintf("field %s must be at most %d characters", path, r.max)
		}
		if len(r.oneof) > 0 && s != "" && !contains(r.oneof, s) {
			return fmt.Sprintf("field %s has unknown value %q; allowed: %s", path, s, strings.Join(r.oneof, ", "))
		}
	case reflect.Slice, reflect.Map:
		if r.hasMax && f.Len() > r.max {
			return fmt.Sprintf("field %s accepts at most %d items", path, r.max)
		}
		if r.hasMin && f.Len() < r.min {
			return fmt.Sprintf("field %s needs at least %d items", path, r.min)
		}
		if len(r.oneof) > 0 && f.Kind() == reflect.Slice && f.Type().Elem().Kind() == reflect.String {
			for i := 0; i < f.Len(); i++ {
				if s := f.Index(i).String(); !contains(r.oneof, s) {
					return fmt.Sprintf("field %s[%d] has unknown value %q; allowed: %s", path, i, s, strings.Join(r.oneof, ", "))
				}
			}
		}
	case reflect.Int, reflect.Int64, reflect.Int32:
		if r.hasMin && f.Int() < int64(r.min) {
			return fmt.Sprintf("field %s must be at least %d", path, r.min)
		}
		if r.hasMax && f.Int() > int64(r.max) {
			return fmt.Sprintf("field %s must be at most %d", path, r.max)
		}
	case reflect.Float64:
		if r.hasMin && f.Float() < float64(r.min) {
			return fmt.Sprintf("field %s must be at least %d", path, r.min)
		}
		if r.hasMax && f.Float() > float64(r.max) {
			return fmt.Sprintf("field %s must be at most %d", path, r.max)
		}
	}
	return validateValue(f, path)
}

func isMissing(f reflect.Value) bool {
	switch f.Kind() {
	case reflect.String:
		return strings.TrimSpace(f.String()) == ""
	case reflect.Slice, reflect.Map:
		return f.Len() == 0
	case reflect.Pointer, reflect.Interface:
		return f.IsNil()
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func asWrapper(f reflect.Value) (Wrapper, bool) {
	if f.Kind() != reflect.Struct || !f.CanInterface() {
		return nil, false
	}
	w, ok := f.Interface().(Wrapper)
	return w, ok
}
