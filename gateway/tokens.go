package gateway

import (
	"crypto/sha256"
	"crypto/subtle"
	"strings"
)

// accepts reports whether token is one of the live tokens. The digest is
// internalauth.HashToken's (SHA-256) in raw form, compared in constant time
// against every stored hash without stopping at a match.
//
// A token that matched is remembered by the entry (which lives at most
// AUTH_CACHE_TTL), so the same client's next requests are checked by a
// constant-time comparison with it instead of a SHA-256 each: the hash was
// ~6 % of the gateway's own instructions per request. A token of another
// length than every remembered one, or one that differs from them, takes
// the hash path as before; what a client can time is whether its token
// has the length of a valid one, which every token issued has anyway.
func (c *credential) accepts(token string) bool {
	if !c.found {
		return false
	}
	if c.seen(token) {
		return true
	}
	sum := sha256.Sum256([]byte(token))
	match := -1
	for i := range c.hashes {
		if subtle.ConstantTimeCompare(sum[:], c.hashes[i][:]) == 1 {
			match = i
		}
	}
	if match < 0 {
		return false
	}
	// A copy: token may be part of the request's head, which must not be
	// kept alive by the entry.
	kept := strings.Clone(token)
	c.verified[match].Store(&kept)
	return true
}

// seen reports whether token is a remembered one, comparing with each in
// constant time.
func (c *credential) seen(token string) bool {
	found := 0
	for i := range c.verified {
		if v := c.verified[i].Load(); v != nil {
			found |= equalConstantTime(*v, token)
		}
	}
	return found == 1
}

// equalConstantTime is subtle.ConstantTimeCompare on strings, without
// converting them to byte slices (a copy, and an allocation past 32 bytes).
func equalConstantTime(a, b string) int {
	if len(a) != len(b) {
		return 0
	}
	var diff byte
	for i := 0; i < len(a); i++ {
		diff |= a[i] ^ b[i]
	}
	return subtle.ConstantTimeByteEq(diff, 0)
}
