package openapi

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"
)

// documentSchemas calls visit for every schema node that pick finds in an
// operation (a request body, a success answer), following $refs into
// components once each, with a path for messages (#Name inside a
// component).
func documentSchemas(t *testing.T, pick func(op map[string]any) any, visit func(path string, node map[string]any)) {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(Document(), &doc); err != nil {
		t.Fatal(err)
	}
	schemas := doc["components"].(map[string]any)["schemas"].(map[string]any)
	seen := map[string]bool{}
	var walk func(path string, s any)
	walk = func(path string, s any) {
		m, ok := s.(map[string]any)
		if !ok {
			return
		}
		if ref, ok := m["$ref"].(string); ok {
			name := strings.TrimPrefix(ref, "#/components/schemas/")
			if !seen[name] {
				seen[name] = true
				walk("#"+name, schemas[name])
			}
			return
		}
		visit(path, m)
		props, _ := m["properties"].(map[string]any)
		for k, p := range props {
			walk(path+"."+k, p)
		}
		walk(path+"[]", m["items"])
		walk(path+"{}", m["additionalProperties"])
		for _, key := range []string{"oneOf", "anyOf", "allOf"} {
			list, _ := m[key].([]any)
			for _, x := range list {
				walk(path+"|", x)
			}
		}
	}
	for p, item := range doc["paths"].(map[string]any) {
		for _, op := range item.(map[string]any) {
			walk(p, pick(op.(map[string]any)))
		}
	}
}

// requestSchemas visits every schema node a POST request body reaches.
func requestSchemas(t *testing.T, visit func(path string, node map[string]any)) {
	t.Helper()
	documentSchemas(t, func(op map[string]any) any {
		body, _ := op["requestBody"].(map[string]any)
		if body == nil {
			return nil
		}
		return body["content"].(map[string]any)["application/json"].(map[string]any)["schema"]
	}, visit)
}

// Strict decoding refuses unknown fields of fixed-shape objects and keeps
// free keys of open ones; every request object with properties must say
// which it is, so the document refuses what the services refuse.
func TestRequestObjectsSayWhetherTheyAreOpen(t *testing.T) {
	var unsaid []string
	requestSchemas(t, func(path string, node map[string]any) {
		if _, ok := node["properties"]; ok {
			if _, set := node["additionalProperties"]; !set {
				unsaid = append(unsaid, path)
			}
		}
	})
	sort.Strings(unsaid)
	if len(unsaid) > 0 {
		t.Fatalf("request objects without additionalProperties (false, or true for free keys):\n%s", strings.Join(unsaid, "\n"))
	}
}
