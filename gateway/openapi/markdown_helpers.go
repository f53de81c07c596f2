package openapi

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

func dig(m map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		next, _ := m[k].(map[string]any)
		if next == nil {
			return nil
		}
		m = next
	}
	return m
}

func str(v any) string {
	if v == nil {
		return ""
	}
	if s, ok := v.(string); ok {
		return s
	}
	return fmt.Sprint(v)
}

func asList(v any) []any { l, _ := v.([]any); return l }

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func refName(ref string) string { return ref[strings.LastIndex(ref, "/")+1:] }

func without(m map[string]any, key string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if k != key {
			out[k] = v
		}
	}
	return out
}

// merge combines two object schemas: b's keywords win, properties and
// required add up.
func merge(a, b map[string]any) map[string]any {
	out := make(map[string]any, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	props := map[string]any{}
	for _, s := range []map[string]any{a, b} {
		if p, ok := s["properties"].(map[string]any); ok {
			for k, v := range p {
				props[k] = v
			}
		}
	}
	out["properties"] = props
	out["required"] = append(append([]any{}, asList(a["required"])...), asList(b["required"])...)
	return out
}

// limits lists a schema's bounds and default.
func limits(s map[string]any) string {
	var out []string
	for _, l := range [][2]string{{"minLength", "min length"}, {"maxLength", "max length"}, {"minItems", "min items"},
		{"maxItems", "max items"}, {"minimum", "min"}, {"maximum", "max"}, {"default", "default"}} {
		if v, ok := s[l[0]]; ok {
			b, _ := json.Marshal(v)
			out = append(out, l[1]+" "+string(b))
		}
	}
	if len(out) == 0 {
		return ""
	}
	return "(" + strings.Join(out, ", ") + ")"
}

// cell makes text safe inside a markdown table cell.
func cell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", "\\|"), "\n", " ")
}

// anchor is GitHub's heading anchor of a heading.
func anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9'):
			b.WriteRune(r)
		}
	}
	return b.String()
}
