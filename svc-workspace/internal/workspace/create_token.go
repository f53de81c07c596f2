package workspace

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
)

// MaxLiveTokens bounds the live auth tokens of one API key: the gateway's
// credential lookup carries all of their hashes on every cache miss, so an
// unbounded number would make every lookup (and the cache entry) grow
// without end.
const MaxLiveTokens = 20

// CreateToken issues a further live auth token for apiKey, refusing when
// it has MaxLiveTokens already (checked before the write; two creates at
// once may both pass the check, which overshoots by one at most per
// concurrent caller, never without bound).
func (s *Service) CreateToken(ctx context.Context, apiKey string) (Credentials, error) {
	w, err := s.workspaceOf(ctx, apiKey)
	if err != nil {
		return Credentials{}, err
	}
	live, err := s.store.TokenHashes(ctx, w.ID)
	if err != nil {
		return Credentials{}, fmt.Errorf("count tokens: %w", err)
	}
	if len(live) >= MaxLiveTokens {
		return Credentials{}, api.Errorf(api.FailedPrecondition,
			"the API key has %d live auth tokens, the most it may have (%d); revoke one with /v2/workspace/authtoken/reset first",
			len(live), MaxLiveTokens)
	}
	token := NewAuthToken()
	hash := internalauth.HashToken(token)
	if err := s.store.AddToken(ctx, w.ID, hash, s.now().UTC()); err != nil {
		return Credentials{}, fmt.Errorf("add token: %w", err)
	}
	if err := s.invalidate(ctx, apiKey); err != nil {
		// The operator never sees this token, so take it back rather than
		// leave a live secret nobody holds; the retry issues a new one.
		if rbErr := s.store.RevokeToken(ctx, w.ID, hash); rbErr != nil {
			slog.WarnContext(ctx, "revoke undelivered token", "workspaceId", w.ID, "error", rbErr)
		}
		return Credentials{}, err
	}
	return Credentials{WorkspaceID: w.ID, APIKey: apiKey, AuthToken: token}, nil
}
