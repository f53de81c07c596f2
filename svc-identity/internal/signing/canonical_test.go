package signing

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func boolPtr(b bool) *bool    { return &b }
func int64Ptr(n int64) *int64 { return &n }

func TestCanonicalGolden(t *testing.T) {
	tests := []struct {
		name  string
		perms []Permission
		want  string
	}{
		{
			name:  "nil array",
			perms: nil,
			want:  `[]`,
		},
		{
			name:  "empty array",
			perms: []Permission{},
			want:  `[]`,
		},
		{
			name: "spec example, keys sorted",
			perms: []Permission{{UserID: "u1", ResourceID: "doc-1", Type: "document",
				HasAccess: boolPtr(true), AccessRole: "editor"}},
			want: `[{"accessRole":"editor","hasAccess":true,"resourceId":"doc-1","type":"document","userId":"u1"}]`,
		},
		{
			name:  "optionals omitted",
			perms: []Permission{{UserID: "u1", ResourceID: "f1", Type: "folder", HasAccess: boolPtr(false)}},
			want:  `[{"hasAccess":false,"resourceId":"f1","type":"folder","userId":"u1"}]`,
		},
		{
			name: "all fields",
			perms: []Permission{{UserID: "u1", ResourceID: "doc-1", Type: "document",
				HasAccess: boolPtr(true), AccessRole: "viewer", ExpiresAt: int64Ptr(1767225600000)}},
			want: `[{"accessRole":"viewer","expiresAt":1767225600000,"hasAccess":true,"resourceId":"doc-1","type":"document","userId":"u1"}]`,
		},
		{
			name: "zero and negative expiresAt are present",
			perms: []Permission{
				{UserID: "u", ResourceID: "r", Type: "organization", HasAccess: boolPtr(true), ExpiresAt: int64Ptr(0)},
				{UserID: "u", ResourceID: "r", Type: "organization", HasAccess: boolPtr(true), ExpiresAt: int64Ptr(-5)},
			},
			want: `[{"expiresAt":0,"hasAccess":true,"resourceId":"r","type":"organization","userId":"u"},` +
				`{"expiresAt":-5,"hasAccess":true,"resourceId":"r","type":"organization","userId":"u"}]`,
		},
		{
			name: "array order preserved",
			perms: []Permission{
				{UserID: "u2", ResourceID: "b", Type: "folder", HasAccess: boolPtr(true)},
				{UserID: "u1", ResourceID: "a", Type: "document", HasAccess: boolPtr(false)},
			},
			want: `[{"hasAccess":true,"resourceId":"b","type":"folder","userId":"u2"},` +
				`{"hasAccess":false,"resourceId":"a","type":"document","userId":"u1"}]`,
		},
		{
			name: "unicode and html characters literal",
			perms: []Permission{{UserID: "zoë 日本 🙂", ResourceID: "<a&b>/'", Type: "document",
				HasAccess: boolPtr(true)}},
			want: `[{"hasAccess":true,"resourceId":"<a&b>/'","type":"document","userId":"zoë 日本 🙂"}]`,
		},
		{
			name: "escapes",
			perms: []Permission{{UserID: "q\"b\\n\nr\rt\tb\bf\f", ResourceID: "c\x00\x1f\x7f",
				Type: "ls\u2028ps\u2029", HasAccess: boolPtr(true)}},
			want: `[{"hasAccess":true,"resourceId":"c\u0000\u001f` + "\x7f" + `","type":"ls\u2028ps\u2029","userId":"q\"b\\n\nr\rt\tb\bf\f"}]`,
		},
		{
			name:  "invalid utf-8 replaced",
			perms: []Permission{{UserID: "a\xffb\xc3", ResourceID: "r", Type: "folder", HasAccess: boolPtr(true)}},
			want:  `[{"hasAccess":true,"resourceId":"r","type":"folder","userId":"a\ufffdb\ufffd"}]`,
		},
		{
			name:  "nil hasAccess written as false",
			perms: []Permission{{UserID: "u", ResourceID: "r", Type: "folder"}},
			want:  `[{"hasAccess":false,"resourceId":"r","type":"folder","userId":"u"}]`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(Canonical(tt.perms))
			if got != tt.want {
				t.Errorf("Canonical() =\n%s\nwant\n%s", got, tt.want)
			}
			if tt.perms != nil && !json.Valid([]byte(got)) {
				t.Errorf("Canonical() is not valid JSON: %s", got)
			}
		})
	}
}

// orderedPermission mirrors the canonical key order so encoding/json can
// serve as an independent reference for the hand-written encoder.
type orderedPermission struct {
	AccessRole string `json:"accessRole,omitempty"`
	ExpiresAt  *int64 `json:"expiresAt,omitempty"`
	HasAccess  bool   `json:"hasAccess"`
	ResourceID string `json:"resourceId"`
	Type       string `json:"type"`
	UserID     string `json:"userId"`
}

func referenceCanonical(t testing.TB, perms []Permission) []byte {
	t.Helper()
	ordered := make([]orderedPermission, len(perms))
	for i, p := range perms {
		ordered[i] = orderedPermission{p.AccessRole, p.ExpiresAt, p.HasAccess != nil && *p.HasAccess,
			p.ResourceID, p.Type, p.UserID}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(ordered); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func TestCanonicalMatchesEncodingJSON(t *testing.T) {
	var all strings.Builder
	for c := 0; c < 256; c++ {
		all.WriteByte(byte(c))
	}
	samples := []string{"", "plain", all.String(), "\u2028\u2029\u2027", "\ufffd", "\xed\xa0\x80", "é\xe2\x82"}
	for _, s := range samples {
		perms := []Permission{{UserID: s, ResourceID: s, Type: s, AccessRole: s, HasAccess: boolPtr(true)}}
		if got, want := Canonical(perms), referenceCanonical(t, perms); !bytes.Equal(got, want) {
			t.Errorf("for %q:\n got %s\nwant %s", s, got, want)
		}
	}
}

func FuzzCanonicalMatchesEncodingJSON(f *testing.F) {
	f.Add("u1", "doc-1", "editor", int64(1), true)
	f.Add("<&>", "\x00\u2028", "", int64(-1), false)
	f.Add("\xff", "日本", "viewer", int64(0), true)
	f.Fuzz(func(t *testing.T, user, resource, role string, exp int64, access bool) {
		perms := []Permission{
			{UserID: user, ResourceID: resource, Type: "document", HasAccess: &access, AccessRole: role, ExpiresAt: &exp},
			{UserID: resource, ResourceID: user, Type: role, HasAccess: &access},
		}
		if got, want := Canonical(perms), referenceCanonical(t, perms); !bytes.Equal(got, want) {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	})
}
