package e2e

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/opencollab/backend/gateway/openapi"
)

// probe is one request derived from an operation's documented example that
// the document refuses, with what the service's answer must say.
type probe struct {
	op, where, want string
	data            any
}

// TestOpenAPIRefusalsAreTheServices sends, for every documented POST
// operation, its example with an unknown key added to each object the
// document closes (additionalProperties: false) and with each array that
// carries a service limit (x-limit) one item longer than maxItems. The
// document refuses these; the service must refuse them too, with
// INVALID_ARGUMENT naming the problem. So a closed object the service
// keeps open, or a documented limit above the service's, fails here.
func TestOpenAPIRefusalsAreTheServices(t *testing.T) {
	t.Parallel()
	var doc map[string]any
	if err := json.Unmarshal(openapi.Document(), &doc); err != nil {
		t.Fatal(err)
	}
	schemas := doc["components"].(map[string]any)["schemas"].(map[string]any)
	var probes []probe
	auth := map[string]string{}
	for path, item := range doc["paths"].(map[string]any) {
		post, _ := item.(map[string]any)["post"].(map[string]any)
		body, _ := post["requestBody"].(map[string]any)
		if body == nil {
			continue
		}
		media := body["content"].(map[string]any)["application/json"].(map[string]any)
		schema := media["schema"].(map[string]any)["properties"].(map[string]any)["data"]
		example := media["example"].(map[string]any)["data"]
		auth[path] = securityKind(post)
		p := prober{schemas: schemas, root: example, op: path}
		p.walk(schema, nil)
		probes = append(probes, p.out...)
	}
	sort.Slice(probes, func(i, j int) bool { return probes[i].op+probes[i].where < probes[j].op+probes[j].where })
	if len(probes) < 50 {
		t.Fatalf("only %d probes: the walk of the document finds too little", len(probes))
	}
	s := sharedStack(t)
	// attempts/get answers FAILED_PRECONDITION before reading its body
	// while advanced webhooks are off.
	expectOK(t, s.call("/v2/workspace/advancedwebhookconfig/update", map[string]any{"isEnabled": true}))
	sent := 0
	defer func() { t.Logf("%d refusals of the document checked against the services", sent) }()
	for _, pr := range probes {
		var r reply
		switch auth[pr.op] {
		case "operator":
			r = s.operator(pr.op, pr.data)
		case "workspace":
			r = s.call(pr.op, pr.data)
		default:
			continue
		}
		sent++
		msg, _ := r.Error["message"].(string)
		if r.Code != 400 || r.Status() != "INVALID_ARGUMENT" || !strings.Contains(msg, pr.want) {
			t.Errorf("%s %s: want 400 INVALID_ARGUMENT with %q, got %d %s", pr.op, pr.where, pr.want, r.Code, r.Raw)
		}
	}
}

func securityKind(op map[string]any) string {
	b, _ := json.Marshal(op["security"])
	switch {
	case strings.Contains(string(b), "operatorToken"):
		return "operator"
	case strings.Contains(string(b), "apiKey"):
		return "workspace"
	}
	return "other"
}

type prober struct {
	schemas map[string]any
	root    any
	op      string
	out     []probe
}

// walk follows schema and the example value at path together.
func (p *prober) walk(schema any, path []any) {
	m, ok := schema.(map[string]any)
	if !ok {
		return
	}
	if ref, ok := m["$ref"].(string); ok {
		p.walk(p.schemas[strings.TrimPrefix(ref, "#/components/schemas/")], path)
		return
	}
	value := at(p.root, path)
	switch v := value.(type) {
	case map[string]any:
		if m["additionalProperties"] == false {
			p.add(path, "unknown field", func(x any) any {
				obj := x.(map[string]any)
				obj["zzNotAField"] = 1
				return obj
			})
		}
		props, _ := m["properties"].(map[string]any)
		for k := range v {
			if ps, ok := props[k]; ok {
				p.walk(ps, append(append([]any(nil), path...), k))
			}
		}
	case []any:
		if _, limited := m["x-limit"]; limited && len(v) > 0 {
			max := int(m["maxItems"].(float64))
			p.add(path, fmt.Sprintf("accepts at most %d items", max), func(x any) any {
				arr := x.([]any)
				long := make([]any, max+1)
				for i := range long {
					long[i] = arr[0]
				}
				return long
			})
		}
		if len(v) > 0 {
			p.walk(m["items"], append(append([]any(nil), path...), 0))
		}
	}
}

// add records the example with the value at path replaced by change(copy).
func (p *prober) add(path []any, want string, change func(any) any) {
	data := deepCopy(p.root)
	if len(path) == 0 {
		data = change(data)
	} else {
		parent := at(data, path[:len(path)-1])
		switch key := path[len(path)-1].(type) {
		case string:
			parent.(map[string]any)[key] = change(parent.(map[string]any)[key])
		case int:
			parent.([]any)[key] = change(parent.([]any)[key])
		}
	}
	p.out = append(p.out, probe{op: p.op, where: fmt.Sprint(path), want: want, data: data})
}

func at(v any, path []any) any {
	for _, k := range path {
		switch k := k.(type) {
		case string:
			v = v.(map[string]any)[k]
		case int:
			v = v.([]any)[k]
		}
	}
	return v
}

func deepCopy(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}
