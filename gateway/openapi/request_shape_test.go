package openapi

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"
)

// requestSchemas calls visit for every schema node a request body reaches,
// following $refs into components once each, with a path for messages.
func requestSchemas(t *testing.T, visit func(path string, node map[string]any)) {
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
	paths := doc["paths"].(map[string]any)
	for p, item := range paths {
		post, _ := item.(map[string]any)["post"].(map[string]any)
		body, _ := post["requestBody"].(map[string]any)
		if body == nil {
			continue
		}
		schema := body["content"].(map[string]any)["application/json"].(map[string]any)["schema"]
		walk(p, schema)
	}
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
