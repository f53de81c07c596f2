package workspace

import (
	"context"
	"fmt"
)

// Lookup is what the gateway needs to authenticate a request: the
// workspace an API key names and the hashes of its live tokens.
type Lookup struct {
	WorkspaceID string
	TokenHashes []string
}

// LookupCredentials resolves apiKey; NOT_FOUND for an unknown key.
func (s *Service) LookupCredentials(ctx context.Context, apiKey string) (Lookup, error) {
	w, err := s.workspaceOf(ctx, apiKey)
	if err != nil {
		return Lookup{}, err
	}
	hashes, err := s.store.TokenHashes(ctx, w.ID)
	if err != nil {
		return Lookup{}, fmt.Errorf("list token hashes: %w", err)
	}
	if hashes == nil {
		hashes = []string{}
	}
	return Lookup{WorkspaceID: w.ID, TokenHashes: hashes}, nil
}
