package gateway

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
)

// Credential headers, in canonical form so lookups skip canonicalisation.
// The x-velt-* names are accepted so Velt customers can point their backend
// at us unchanged.
const (
	headerAPIKey        = "X-Svc-Api-Key"
	headerAuthToken     = "X-Svc-Auth-Token"
	headerVeltAPIKey    = "X-Velt-Api-Key"
	headerVeltAuthToken = "X-Velt-Auth-Token"
	headerOperatorToken = "X-Svc-Operator-Token"
)

// maxCredentialLen refuses absurd header values before they reach a cache
// key or a lookup.
const maxCredentialLen = 512

// errDenied is the one answer to every credential failure: it does not say
// which header was wrong.
var errDenied = api.Errorf(api.PermissionDenied, "invalid API key or auth token")

// errOperatorDenied answers operator paths without a valid operator token.
var errOperatorDenied = api.Errorf(api.PermissionDenied, "operator credentials required")

// signedPrincipal holds the internal auth headers for one principal, signed
// once and set on many requests. The slices have len == cap, so nobody can
// append into the shared backing array (Header.Add reallocates).
type signedPrincipal struct {
	principal, timestamp, signature []string
	expires                         time.Time
}

// signatureLife is how long a signature is reused; far inside MaxSkew.
const signatureLife = time.Second

func signPrincipal(signer *internalauth.Signer, principal string, now time.Time) *signedPrincipal {
	h := make(http.Header, 3)
	signer.Sign(h, principal)
	return &signedPrincipal{
		principal: h[internalauth.HeaderPrincipal],
		timestamp: h[internalauth.HeaderTimestamp],
		signature: h[internalauth.HeaderSignature],
		expires:   now.Add(signatureLife),
	}
}

// fixedPrincipal signs one principal that needs no lookup (the operator,
// realtime upgrades) at most once per signatureLife.
type fixedPrincipal struct {
	principal string
	signer    *internalauth.Signer
	signed    atomic.Pointer[signedPrincipal]
}

func newFixedPrincipal(signer *internalauth.Signer, principal string) *fixedPrincipal {
	return &fixedPrincipal{principal: principal, signer: signer}
}

// current returns a signature that is still fresh.
func (f *fixedPrincipal) current() *signedPrincipal {
	now := time.Now()
	p := f.signed.Load()
	if p == nil || !now.Before(p.expires) {
		p = signPrincipal(f.signer, f.principal, now)
		f.signed.Store(p)
	}
	return p
}

// operatorAuth checks the operator token and signs the operator principal.
type operatorAuth struct {
	enabled bool
	hash    [sha256.Size]byte
	signed  *fixedPrincipal
}

func newOperatorAuth(token string, signer *internalauth.Signer) *operatorAuth {
	return &operatorAuth{enabled: token != "", hash: sha256.Sum256([]byte(token)), signed: newFixedPrincipal(signer, internalauth.Operator)}
}

// authenticate compares digests so neither the token nor its length leaks
// through timing.
func (o *operatorAuth) authenticate(h *clientFields) (*signedPrincipal, error) {
	got := firstValue(h, headerOperatorToken, "")
	if !o.enabled || got == "" {
		return nil, errOperatorDenied
	}
	sum := sha256.Sum256([]byte(got))
	if subtle.ConstantTimeCompare(sum[:], o.hash[:]) != 1 {
		return nil, errOperatorDenied
	}
	return o.signed.current(), nil
}

// authenticateWorkspace checks the workspace credentials and returns the
// signed workspace principal and the API key (the rate-limit key).
func authenticateWorkspace(ctx context.Context, creds *credentialStore, h *clientFields) (*signedPrincipal, string, error) {
	apiKey := firstValue(h, headerAPIKey, headerVeltAPIKey)
	token := firstValue(h, headerAuthToken, headerVeltAuthToken)
	if apiKey == "" || token == "" || len(apiKey) > maxCredentialLen || len(token) > maxCredentialLen {
		return nil, "", errDenied
	}
	c, err := creds.resolve(ctx, apiKey)
	if err != nil {
		return nil, "", err
	}
	if !c.accepts(token) {
		// A token created since the entry was cached is not in it yet: look
		// again before refusing (svc-workspace tombstoned the Redis entry).
		if c, err = creds.recheck(ctx, apiKey, c); err != nil || !c.accepts(token) {
			return nil, "", errDenied
		}
	}
	return c.current(), apiKey, nil
}

// firstValue returns the first value of name, else of alias.
func firstValue(h *clientFields, name, alias string) string {
	if v, n := h.first(name); n > 0 && v != "" {
		return v
	}
	if alias != "" {
		return h.get(alias)
	}
	return ""
}
