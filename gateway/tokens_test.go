package gateway

import (
	"strings"
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/internalauth"
)

// A token accepted once is remembered by the entry, and the remembered
// tokens refuse what the hashes refuse: other tokens of the same length,
// prefixes and extensions, in any order of checks.
func TestAcceptsRemembersOnlyValidTokens(t *testing.T) {
	s := newCredentialStore(nil, newRedisGuard(), nil, internalauth.NewSigner(testSecret), time.Second, discardLogger())
	one, two := strings.Repeat("a", 48), strings.Repeat("b", 48)
	c := s.newCredential(credentialRecord{
		WorkspaceID: "ws",
		TokenHashes: []string{internalauth.HashToken(one), internalauth.HashToken(two)},
	}, true)
	checks := []struct {
		token string
		want  bool
	}{
		{one, true}, {one, true}, {strings.Repeat("a", 47) + "b", false}, {one[:47], false},
		{one + "a", false}, {two, true}, {one, true}, {two, true}, {"", false},
		{strings.Repeat("b", 47) + "a", false},
	}
	for i, ch := range checks {
		if got := c.accepts(ch.token); got != ch.want {
			t.Errorf("check %d: accepts(%q) = %v, want %v", i, ch.token, got, ch.want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { c.accepts(one) }); n != 0 {
		t.Errorf("a remembered token costs %v allocations", n)
	}
}

func TestEqualConstantTime(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"", "", 1}, {"abc", "abc", 1}, {"abc", "abd", 0}, {"abc", "ab", 0}, {"", "a", 0}} {
		if got := equalConstantTime(c.a, c.b); got != c.want {
			t.Errorf("equalConstantTime(%q, %q) = %d", c.a, c.b, got)
		}
	}
}
