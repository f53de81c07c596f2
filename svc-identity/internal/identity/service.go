package identity

import (
	"context"
	"time"
)

// PageTokens turns cursors into opaque tokens bound to a workspace and a
// query (pkg/pagetoken.Store).
type PageTokens interface {
	Save(ctx context.Context, workspaceID, queryKey, cursor string) (string, error)
	Load(ctx context.Context, workspaceID, queryKey, token string) (string, error)
}

// Service runs the identity operations. Each operation lives in its own
// file.
type Service struct {
	store       Store
	pages       PageTokens
	now         func() time.Time
	revocations RevocationStore // nil: removals revoke nothing in tokens
	notify      AccessNotifier
}

// NewService returns a Service; now may be nil (time.Now).
func NewService(store Store, pages PageTokens, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{store: store, pages: pages, now: now}
}

// nowMilli is the timestamp stored in createdAt and lastUpdated.
func (s *Service) nowMilli() int64 { return s.now().UnixMilli() }

// DefaultPageSize is the page size of every paged read when none is sent.
const DefaultPageSize = 1000

func pageSize(n int) int {
	if n <= 0 {
		return DefaultPageSize
	}
	return n
}
