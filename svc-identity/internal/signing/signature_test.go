package signing

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

var testSecret = []byte("0123456789abcdef0123456789abcdef")

func samplePerms() []Permission {
	return []Permission{
		{UserID: "u1", ResourceID: "doc-1", Type: "document", HasAccess: boolPtr(true), AccessRole: "editor"},
		{UserID: "u1", ResourceID: "fold<&>", Type: "folder", HasAccess: boolPtr(false), ExpiresAt: int64Ptr(1767225600)},
	}
}

// TestSignMatchesDocumentedCanonicalBytes recomputes the signature the way a
// customer would: HMAC-SHA256 over the canonical text written out by hand.
// It fails if the canonical form drifts from the documentation.
func TestSignMatchesDocumentedCanonicalBytes(t *testing.T) {
	documented := `[{"accessRole":"editor","hasAccess":true,"resourceId":"doc-1","type":"document","userId":"u1"},` +
		`{"expiresAt":1767225600,"hasAccess":false,"resourceId":"fold<&>","type":"folder","userId":"u1"}]`
	h := hmac.New(sha256.New, testSecret)
	h.Write([]byte(documented))
	want := hex.EncodeToString(h.Sum(nil))

	got := Sign(testSecret, samplePerms())
	if got != want {
		t.Fatalf("Sign() = %s, want %s", got, want)
	}
	if got != strings.ToLower(got) || len(got) != 64 {
		t.Errorf("Sign() = %q, want 64 lowercase hex digits", got)
	}
}

func TestVerify(t *testing.T) {
	sig := Sign(testSecret, samplePerms())
	tamper := func(f func(p []Permission) []Permission) []Permission { return f(samplePerms()) }

	tests := []struct {
		name   string
		secret []byte
		perms  []Permission
		sig    string
		want   bool
	}{
		{"valid", testSecret, samplePerms(), sig, true},
		{"uppercase hex", testSecret, samplePerms(), strings.ToUpper(sig), true},
		{"hasAccess flipped", testSecret, tamper(func(p []Permission) []Permission {
			p[1].HasAccess = boolPtr(true)
			return p
		}), sig, false},
		{"accessRole changed", testSecret, tamper(func(p []Permission) []Permission {
			p[0].AccessRole = "viewer"
			return p
		}), sig, false},
		{"expiresAt extended", testSecret, tamper(func(p []Permission) []Permission {
			p[1].ExpiresAt = int64Ptr(1767225601)
			return p
		}), sig, false},
		{"expiresAt dropped", testSecret, tamper(func(p []Permission) []Permission {
			p[1].ExpiresAt = nil
			return p
		}), sig, false},
		{"resource swapped", testSecret, tamper(func(p []Permission) []Permission {
			p[0].ResourceID = "doc-2"
			return p
		}), sig, false},
		{"order swapped", testSecret, tamper(func(p []Permission) []Permission {
			return []Permission{p[1], p[0]}
		}), sig, false},
		{"permission removed", testSecret, samplePerms()[:1], sig, false},
		{"wrong secret", []byte("another secret of some length!!!"), samplePerms(), sig, false},
		{"empty secret", nil, samplePerms(), Sign(nil, samplePerms()), false},
		{"not hex", testSecret, samplePerms(), "zz" + sig[2:], false},
		{"truncated", testSecret, samplePerms(), sig[:62], false},
		{"empty signature", testSecret, samplePerms(), "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Verify(tt.secret, tt.perms, tt.sig); got != tt.want {
				t.Errorf("Verify() = %v, want %v", got, tt.want)
			}
		})
	}
}
