package workspace

import (
	"crypto/rand"
	"encoding/base64"
)

// Prefixes make a leaked secret recognisable (and greppable) by its kind.
const (
	apiKeyPrefix      = "ak_"
	authTokenPrefix   = "at_"
	workspaceIDPrefix = "ws_"

	apiKeyChars      = 24
	workspaceIDChars = 20
	authTokenBytes   = 32
)

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// NewAPIKey returns "ak_" and 24 random base62 characters (~143 bits).
func NewAPIKey() string { return apiKeyPrefix + randomBase62(apiKeyChars) }

// NewAuthToken returns "at_" and the unpadded base64url form of 32 random
// bytes (43 characters).
func NewAuthToken() string {
	b := make([]byte, authTokenBytes)
	_, _ = rand.Read(b) // never fails (crypto/rand since Go 1.24)
	return authTokenPrefix + base64.RawURLEncoding.EncodeToString(b)
}

// NewWorkspaceID returns "ws_" and 20 random base62 characters.
func NewWorkspaceID() string { return workspaceIDPrefix + randomBase62(workspaceIDChars) }

// randomBase62 draws n characters uniformly: bytes are cut to 6 bits and
// values 62 and 63 are dropped, so no character is more likely than another.
func randomBase62(n int) string {
	out := make([]byte, 0, n)
	buf := make([]byte, n+n/4+8)
	for len(out) < n {
		_, _ = rand.Read(buf)
		for _, b := range buf {
			if v := b & 63; v < 62 {
				out = append(out, base62[v])
				if len(out) == n {
					break
				}
			}
		}
	}
	return string(out)
}
