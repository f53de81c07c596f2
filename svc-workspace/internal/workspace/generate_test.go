package workspace

import (
	"encoding/base64"
	"regexp"
	"strings"
	"testing"
)

func TestGeneratedFormats(t *testing.T) {
	tests := []struct {
		name string
		gen  func() string
		want *regexp.Regexp
	}{
		{"api key", NewAPIKey, regexp.MustCompile(`^ak_[0-9A-Za-z]{24}$`)},
		{"auth token", NewAuthToken, regexp.MustCompile(`^at_[0-9A-Za-z_-]{43}$`)},
		{"workspace id", NewWorkspaceID, regexp.MustCompile(`^ws_[0-9A-Za-z]{20}$`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seen := map[string]bool{}
			for range 200 {
				v := tt.gen()
				if !tt.want.MatchString(v) {
					t.Fatalf("%q does not match %s", v, tt.want)
				}
				if seen[v] {
					t.Fatalf("%q generated twice", v)
				}
				seen[v] = true
			}
		})
	}
}

func TestAuthTokenIs32Bytes(t *testing.T) {
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(NewAuthToken(), "at_"))
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) != 32 {
		t.Fatalf("token encodes %d bytes, want 32", len(raw))
	}
}

// TestRandomBase62UsesWholeAlphabet guards against a biased or truncated
// alphabet (e.g. a modulo that never reaches the last letters).
func TestRandomBase62UsesWholeAlphabet(t *testing.T) {
	counts := map[rune]int{}
	for _, r := range randomBase62(62 * 200) {
		counts[r]++
	}
	for _, r := range base62 {
		if counts[r] == 0 {
			t.Fatalf("character %q never drawn", r)
		}
	}
	if len(counts) != len(base62) {
		t.Fatalf("drew %d distinct characters, want %d", len(counts), len(base62))
	}
}
