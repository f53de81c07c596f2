package identity

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/pagetoken"
)

// loadCursor resolves a page token into dst; no token leaves dst as is
// (the first page).
func (s *Service) loadCursor(ctx context.Context, ws, queryKey, token string, dst any) error {
	if token == "" {
		return nil
	}
	raw, err := s.pages.Load(ctx, ws, queryKey, token)
	if err != nil {
		return err
	}
	if err := json.Unmarshal([]byte(raw), dst); err != nil {
		return api.Errorf(api.InvalidArgument, "pageToken is malformed; start again without a pageToken")
	}
	return nil
}

// saveCursor stores the cursor of the next page and returns its token.
func (s *Service) saveCursor(ctx context.Context, ws, queryKey string, cursor any) (string, error) {
	b, err := json.Marshal(cursor)
	if err != nil {
		return "", fmt.Errorf("encode cursor: %w", err)
	}
	return s.pages.Save(ctx, ws, queryKey, string(b))
}

// queryKey fingerprints a paged query without its pageToken and pageSize.
func queryKey(op string, filter any) string { return pagetoken.QueryKey(op, filter) }
