package api

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

type user struct {
	UserID     string `json:"userId" validate:"required"`
	Name       string `json:"name"`
	AccessRole string `json:"accessRole" validate:"oneof=viewer editor"`
}

type addUsers struct {
	OrganizationID string            `json:"organizationId" validate:"required"`
	Users          []user            `json:"users" validate:"required,max=3"`
	Limit          *int              `json:"limit" validate:"min=1,max=50"`
	Kinds          []string          `json:"kinds" validate:"oneof=a b"`
	Extra          map[string]any    `json:"extra"`
	Labels         map[string]string `json:"labels"`
}

func TestDecode(t *testing.T) {
	tests := []struct {
		name      string
		body      string
		opts      DecodeOptions
		wantInMsg string // empty: success
	}{
		{"ok", `{"data":{"organizationId":"o","users":[{"userId":"u","accessRole":"viewer"}]}}`, DecodeOptions{}, ""},
		{"unknown field", `{"data":{"organizationId":"o","users":[{"userId":"u","photoUrl":"x"}]}}`, DecodeOptions{}, "unknown field users[0].photoUrl"},
		{"unknown field near a known one", `{"data":{"organisationId":"o","users":[{"userId":"u"}]}}`, DecodeOptions{}, "unknown field organisationId; did you mean organizationId?"},
		{"field name in other case", `{"data":{"organizationID":"o","users":[{"userId":"u"}]}}`, DecodeOptions{}, "did you mean organizationId?"},
		{"nested field in other case", `{"data":{"organizationId":"o","users":[{"UserId":"u"}]}}`, DecodeOptions{}, "unknown field users[0].UserId; did you mean userId?"},
		{"unknown top-level field", `{"data":{"organizationId":"o","users":[{"userId":"u"}]},"other":1}`, DecodeOptions{}, "top-level field other"},
		{"duplicate key", `{"data":{"organizationId":"o","organizationId":"p","users":[{"userId":"u"}]}}`, DecodeOptions{}, "organizationId appears twice"},
		{"duplicate key after a dollar key", `{"data":{"organizationId":"o","users":[{"userId":"u"}],"extra":{"$a":1,"$a":2}}}`, DecodeOptions{}, "extra.$a"},
		{"duplicate key in a free object", `{"data":{"organizationId":"o","users":[{"userId":"u"}],"extra":{"a":{"b":1,"b":2}}}}`, DecodeOptions{}, "extra.a.b appears twice"},
		{"free object nested too deep", `{"data":{"organizationId":"o","users":[{"userId":"u"}],"extra":{"a":` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `}}}`, DecodeOptions{}, "extra.a" + strings.Repeat("[0]", 29) + " nests deeper than 32"},
		{"free object at the depth limit", `{"data":{"organizationId":"o","users":[{"userId":"u"}],"extra":{"a":` + strings.Repeat("[", 29) + strings.Repeat("]", 29) + `}}}`, DecodeOptions{}, ""},
		{"free-form keys kept", `{"data":{"organizationId":"o","users":[{"userId":"u"}],"extra":{"anything":{"goes":[1,{"x":null}]}}}}`, DecodeOptions{}, ""},
		{"empty body", ``, DecodeOptions{}, `"data" object`},
		{"empty body allowed", ``, DecodeOptions{AllowEmpty: true}, "organizationId is required"},
		{"no data", `{"organizationId":"o"}`, DecodeOptions{}, "parameters go inside data"},
		{"empty envelope", `{}`, DecodeOptions{}, "data is required"},
		{"data null", `{"data":null}`, DecodeOptions{}, "data is required"},
		{"data array", `{"data":[1]}`, DecodeOptions{}, "data must be an object"},
		{"body array", `[{"data":{}}]`, DecodeOptions{}, `"data" object`},
		{"malformed", `{"data":{"organizationId":`, DecodeOptions{}, "malformed JSON"},
		{"trailing", `{"data":{}} {}`, DecodeOptions{}, "trailing"},
		{"missing required", `{"data":{"users":[{"userId":"u"}]}}`, DecodeOptions{}, "organizationId is required"},
		{"blank required", `{"data":{"organizationId":"  ","users":[{"userId":"u"}]}}`, DecodeOptions{}, "organizationId is required"},
		{"empty required list", `{"data":{"organizationId":"o","users":[]}}`, DecodeOptions{}, "users is required"},
		{"nested required", `{"data":{"organizationId":"o","users":[{"userId":"u"},{"name":"n"}]}}`, DecodeOptions{}, "users[1].userId is required"},
		{"wrong type string", `{"data":{"organizationId":5,"users":[{"userId":"u"}]}}`, DecodeOptions{}, "organizationId has the wrong type"},
		{"wrong type nested", `{"data":{"organizationId":"o","users":[{"userId":true}]}}`, DecodeOptions{}, "users.userId has the wrong type"},
		{"wrong type list", `{"data":{"organizationId":"o","users":{"userId":"u"}}}`, DecodeOptions{}, "users has the wrong type"},
		{"unknown enum", `{"data":{"organizationId":"o","users":[{"userId":"u","accessRole":"owner"}]}}`, DecodeOptions{}, `users[0].accessRole has unknown value "owner"`},
		{"unknown enum in list", `{"data":{"organizationId":"o","users":[{"userId":"u"}],"kinds":["a","z"]}}`, DecodeOptions{}, `kinds[1] has unknown value "z"`},
		{"too many", `{"data":{"organizationId":"o","users":[{"userId":"1"},{"userId":"2"},{"userId":"3"},{"userId":"4"}]}}`, DecodeOptions{}, "users accepts at most 3"},
		{"number below min", `{"data":{"organizationId":"o","users":[{"userId":"u"}],"limit":0}}`, DecodeOptions{}, "limit must be at least 1"},
		{"number above max", `{"data":{"organizationId":"o","users":[{"userId":"u"}],"limit":51}}`, DecodeOptions{}, "limit must be at most 50"},
		{"dollar key", `{"data":{"organizationId":"o","users":[{"userId":"u"}],"extra":{"$set":1}}}`, DecodeOptions{}, "extra.$set: keys must not start with '$'"},
		{"dollar key in list", `{"data":{"organizationId":"o","users":[{"userId":"u","$where":"1"}]}}`, DecodeOptions{}, "users[0].$where"},
		{"dotted key", `{"data":{"organizationId":"o","users":[{"userId":"u"}],"extra":{"a.b":1}}}`, DecodeOptions{}, "extra.a.b: keys must not contain '.'"},
		{"dotted key allowed in free map", `{"data":{"organizationId":"o","users":[{"userId":"u"}],"labels":{"comment.add":"x"}}}`, DecodeOptions{FreeKeys: []string{"labels"}}, ""},
		{"dollar key not allowed in free map", `{"data":{"organizationId":"o","users":[{"userId":"u"}],"labels":{"$x":"x"}}}`, DecodeOptions{FreeKeys: []string{"labels"}}, "must not start with '$'"},
		{"too large", `{"data":{"organizationId":"` + strings.Repeat("x", 200) + `"}}`, DecodeOptions{MaxBytes: 100}, "exceeds the limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(tt.body))
			var got addUsers
			err := Decode(r, &got, tt.opts)
			if tt.wantInMsg == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("want error containing %q, got nil", tt.wantInMsg)
			}
			apiErr, ok := AsError(err)
			if !ok || apiErr.Status != InvalidArgument {
				t.Fatalf("want INVALID_ARGUMENT, got %v", err)
			}
			if !strings.Contains(apiErr.Message, tt.wantInMsg) {
				t.Fatalf("message %q does not contain %q", apiErr.Message, tt.wantInMsg)
			}
		})
	}
}

func TestDecodeChunkedOverLimit(t *testing.T) {
	body := `{"data":{"organizationId":"` + strings.Repeat("x", 500) + `"}}`
	r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
	r.ContentLength = -1 // unknown length: the limit must still hold while reading
	var got addUsers
	err := Decode(r, &got, DecodeOptions{MaxBytes: 100})
	if !IsStatus(err, InvalidArgument) || !strings.Contains(err.Error(), "exceeds the limit") {
		t.Fatalf("err = %v", err)
	}
}

// profile is an open object: known fields plus free keys.
type profile struct {
	UserID string         `json:"userId" validate:"required"`
	Extra  map[string]any `json:"-"`
}

func (*profile) OpenJSON() {}

// optionalName is a wrapper whose JSON is a string.
type optionalName struct{ v string }

func (o *optionalName) UnmarshalJSON(b []byte) error { return json.Unmarshal(b, &o.v) }
func (*optionalName) JSONShape() any                 { return "" }

type withOpen struct {
	Profiles []profile    `json:"profiles"`
	Name     optionalName `json:"name"`
}

func TestDecodeOpenAndShapedObjects(t *testing.T) {
	tests := []struct{ name, body, wantInMsg string }{
		{"open object keeps free keys", `{"data":{"profiles":[{"userId":"u","plan":"pro","prefs":{"a":1}}]}}`, ""},
		{"open object refuses a known name in other case", `{"data":{"profiles":[{"userId":"u","UserID":"v"}]}}`, "unknown field profiles[0].UserID; did you mean userId?"},
		{"open object still refuses $ keys", `{"data":{"profiles":[{"userId":"u","prefs":{"$set":1}}]}}`, "profiles[0].prefs.$set"},
		{"open object checks known field types", `{"data":{"profiles":[{"userId":{"$gt":""}}]}}`, "profiles[0].userId.$gt"},
		{"shaped value", `{"data":{"name":"x"}}`, ""},
		{"shaped value wrong type", `{"data":{"name":{"a":1}}}`, "name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got withOpen
			err := DecodeBytes([]byte(tt.body), &got, DecodeOptions{})
			if tt.wantInMsg == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantInMsg) {
				t.Fatalf("err = %v, want it to contain %q", err, tt.wantInMsg)
			}
		})
	}
}

type limited struct {
	IDs []string `json:"ids" validate:"max=@test.ids"`
}

func TestNamedLimit(t *testing.T) {
	RegisterLimits(Limit{Name: "test.ids", Max: 2, Doc: "ids"})
	err := DecodeBytes([]byte(`{"data":{"ids":["a","b","c"]}}`), &limited{}, DecodeOptions{})
	if err == nil || !strings.Contains(err.Error(), "field ids accepts at most 2 items") {
		t.Fatalf("err = %v", err)
	}
	if err := DecodeBytes([]byte(`{"data":{"ids":["a","b"]}}`), &limited{}, DecodeOptions{}); err != nil {
		t.Fatalf("at the limit: %v", err)
	}
	if l := Limits(); len(l) == 0 || l[len(l)-1].Name != "test.ids" {
		t.Fatalf("Limits() = %v", l)
	}
}
