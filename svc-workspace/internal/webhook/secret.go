package webhook

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"strings"
	"time"
)

// Endpoint ids and signing secrets (Standard Webhooks: "whsec_" and the
// base64 of the HMAC key).
const (
	endpointIDPrefix = "ep_"
	secretPrefix     = "whsec_"
	secretBytes      = 32
	// RotationOverlap is how long a rotated-out secret still signs, so
	// receivers can switch to the new one without dropping deliveries.
	RotationOverlap = 24 * time.Hour
)

// newEndpointID returns "ep_" and 26 random base32 characters (130 bits).
func newEndpointID() string { return endpointIDPrefix + rand.Text() }

// newSecret returns "whsec_" and the standard base64 of 32 random bytes.
func newSecret() string {
	b := make([]byte, secretBytes)
	_, _ = rand.Read(b) // never fails (crypto/rand since Go 1.24)
	return secretPrefix + base64.StdEncoding.EncodeToString(b)
}

// secretContext binds a sealed secret to its endpoint.
func secretContext(workspaceID, endpointID string) string {
	return "endpoint-secret\x00" + workspaceID + "\x00" + endpointID
}

// sealSecret seals a new secret of an endpoint.
func (s *Service) sealSecret(workspaceID, endpointID string) Secret {
	return Secret{Sealed: s.box.Seal([]byte(newSecret()), secretContext(workspaceID, endpointID))}
}

// openSecret returns the "whsec_…" form of a stored secret.
func (s *Service) openSecret(workspaceID, endpointID string, sec Secret) (string, error) {
	plain, err := s.box.Open(sec.Sealed, secretContext(workspaceID, endpointID))
	if err != nil {
		return "", err
	}
	return string(plain), nil
}

// hmacKey returns the raw key of a "whsec_…" secret.
func hmacKey(secret string) ([]byte, error) {
	rest, ok := strings.CutPrefix(secret, secretPrefix)
	if !ok {
		return nil, errors.New("webhook: stored secret has no whsec_ prefix")
	}
	return base64.StdEncoding.DecodeString(rest)
}

// current returns the secret that signs first: the one without expiry.
func current(secrets []Secret) (Secret, bool) {
	for _, sec := range secrets {
		if sec.ExpiresAt == nil {
			return sec, true
		}
	}
	return Secret{}, false
}

// live returns the secrets that still sign at now, current first.
func live(secrets []Secret, now time.Time) []Secret {
	var out []Secret
	if cur, ok := current(secrets); ok {
		out = append(out, cur)
	}
	for _, sec := range secrets {
		if sec.ExpiresAt != nil && now.Before(*sec.ExpiresAt) {
			out = append(out, sec)
		}
	}
	return out
}
