package openapi

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// loadDoc parses the served document with kin-openapi.
func loadDoc(t *testing.T) *openapi3.T {
	t.Helper()
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(Document())
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	return doc
}

func TestDocumentIsValidOpenAPI31(t *testing.T) {
	doc := loadDoc(t)
	if !doc.IsOpenAPI31OrLater() || doc.OpenAPIMajorMinor() != "3.1" {
		t.Fatalf("openapi = %q, want 3.1.x", doc.OpenAPI)
	}
	if err := doc.Validate(context.Background(), openapi3.EnableExamplesValidation()); err != nil {
		t.Fatalf("validate: %v", err)
	}
}

func TestEveryEnvelopeOperationIsComplete(t *testing.T) {
	doc := loadDoc(t)
	for _, o := range Operations() {
		op := doc.Paths.Find(o.Path).GetOperation(o.Method)
		if op == nil {
			t.Fatalf("%s %s listed but not in paths", o.Method, o.Path)
		}
		if op.Summary == "" || len(op.Tags) != 1 {
			t.Errorf("%s %s: summary and one tag are required", o.Method, o.Path)
		}
		if o.Method != "POST" {
			continue
		}
		if op.RequestBody == nil || op.RequestBody.Value.Content.Get("application/json").Example == nil {
			t.Errorf("%s: no request example", o.Path)
		}
		for _, code := range []string{"200", "400", "403", "500", "503"} {
			if op.Responses.Value(code) == nil {
				t.Errorf("%s: no %s response", o.Path, code)
			}
		}
		if o.Auth == "workspace" && op.Responses.Value("429") == nil {
			t.Errorf("%s: workspace operations are rate-limited; 429 is missing", o.Path)
		}
	}
}

func TestAssembleRefusesBadFragments(t *testing.T) {
	for name, spec := range map[string]opSpec{
		"no summary":     {Tag: "T", Example: example()},
		"no example":     {Tag: "T", Summary: "s", Data: map[string]any{}},
		"no data":        {Tag: "T", Summary: "s", Example: example()},
		"unknown status": {Tag: "T", Summary: "s", Data: map[string]any{}, Errors: []string{"GONE"}, Example: example()},
	} {
		if _, _, err := spec.build("/v2/x/y", map[string]any{}); err == nil {
			t.Errorf("%s: build accepted it", name)
		}
	}
}

func example() (e struct {
	Request  any `yaml:"request"`
	Response any `yaml:"response"`
}) {
	e.Request = map[string]any{}
	return e
}

func TestErrorStatusesFollowTheHTTPTable(t *testing.T) {
	var doc map[string]any
	if err := json.Unmarshal(Document(), &doc); err != nil {
		t.Fatal(err)
	}
	op := doc["paths"].(map[string]any)["/v2/users/get"].(map[string]any)["post"].(map[string]any)
	resp := op["responses"].(map[string]any)
	ref := resp["400"].(map[string]any)["$ref"].(string)
	shared := doc["components"].(map[string]any)["responses"].(map[string]any)
	desc := shared[ref[strings.LastIndex(ref, "/")+1:]].(map[string]any)["description"].(string)
	if !strings.Contains(desc, "FAILED_PRECONDITION") || !strings.Contains(desc, "INVALID_ARGUMENT") {
		t.Fatalf("users/get 400 should list the feature switch's FAILED_PRECONDITION: %s", desc)
	}
	if _, ok := resp["409"]; ok {
		t.Fatal("users/get documents ALREADY_EXISTS, which it never answers")
	}
	if op["operationId"] != "v2UsersGet" {
		t.Fatalf("operationId = %v", op["operationId"])
	}
}
