package signing

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
)

// Sign returns the lowercase hex HMAC-SHA256 of Canonical(perms) keyed with
// secret (the workspace's signature secret).
func Sign(secret []byte, perms []Permission) string {
	return hex.EncodeToString(mac(secret, perms))
}

// Verify reports whether sig is the signature of perms under secret. The
// comparison of the MAC is constant time; sig may use either hex case. An
// empty secret never verifies, so a missing secret cannot pass as a valid
// one.
func Verify(secret []byte, perms []Permission, sig string) bool {
	if len(secret) == 0 {
		return false
	}
	got, err := hex.DecodeString(sig)
	if err != nil {
		return false
	}
	return hmac.Equal(got, mac(secret, perms))
}

func mac(secret []byte, perms []Permission) []byte {
	h := hmac.New(sha256.New, secret)
	h.Write(Canonical(perms))
	return h.Sum(nil)
}
