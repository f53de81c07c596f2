package api

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// The decoders of outside bytes must never panic, must refuse only with
// INVALID_ARGUMENT, and what they accept must be what encoding/json reads
// the same way (no key the store cannot hold, no nesting beyond MaxDepth).
// Seeds are in testdata/fuzz; scripts/test.sh runs each briefly.

func FuzzDecodeEnvelope(f *testing.F) {
	for _, s := range []string{
		`{"data":{"organizationId":"o","users":[{"userId":"u","accessRole":"viewer"}]}}`,
		`{"data":{"organisationId":"o"}}`,
		`{"data":{"organizationId":"o","organizationId":"o","users":[{"userId":"u"}]}}`,
		`{"data":{"organizationId":"o","users":[{"userId":"u"}],"extra":{"$a":1,"$a":2}}}`,
		`{"data":null}`, `[]`, `{"data":{}} {}`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var got addUsers
		err := DecodeBytes(body, &got, DecodeOptions{})
		if err != nil {
			assertInvalidArgument(t, err)
			return
		}
		if got.OrganizationID == "" || len(got.Users) == 0 {
			t.Fatalf("accepted a body without its required fields: %q", body)
		}
		assertStorable(t, got.Extra, "")
	})
}

func FuzzDecodeFreeForm(f *testing.F) {
	for _, s := range []string{
		`{"data":{"a":{"b":[1,2,{"c":null}]}}}`,
		`{"data":{"a.b":1}}`, `{"data":{"$where":1}}`, `{"data":{"a":1,"a":2}}`,
		`{"data":{"n":1e400}}`, `{"data":{"k\u0000":1}}`,
		`{"data":{"deep":` + strings.Repeat(`{"x":`, 40) + `1` + strings.Repeat(`}`, 40) + `}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var got map[string]any
		err := DecodeBytes(body, &got, DecodeOptions{AllowEmpty: true})
		if err != nil {
			assertInvalidArgument(t, err)
			return
		}
		assertStorable(t, got, "")
	})
}

func assertInvalidArgument(t *testing.T, err error) {
	t.Helper()
	var apiErr *Error
	if !errors.As(err, &apiErr) || apiErr.Status != InvalidArgument || apiErr.Message == "" {
		t.Fatalf("refusal is not INVALID_ARGUMENT with a message: %v", err)
	}
}

// assertStorable checks what a store would refuse or choke on.
func assertStorable(t *testing.T, v any, path string) {
	t.Helper()
	if strings.Count(path, "/") > MaxDepth {
		t.Fatalf("accepted nesting deeper than %d at %s", MaxDepth, path)
	}
	switch x := v.(type) {
	case map[string]any:
		for k, child := range x {
			if k == "" || strings.HasPrefix(k, "$") || strings.ContainsAny(k, ".\x00") {
				t.Fatalf("accepted key %q at %s", k, path)
			}
			assertStorable(t, child, path+"/"+k)
		}
	case []any:
		for _, child := range x {
			assertStorable(t, child, path+"/[]")
		}
	case json.Number, float64, string, bool, nil:
	}
}
