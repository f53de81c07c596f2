package annotations

import (
	"context"
	"time"
)

// Hooks for the package's tests, which are the external package
// annotations_test because they run the service on internal/store (which
// imports this package).

// SetClock makes s read the time from now.
func (s *Service) SetClock(now func() time.Time) { s.now = now }

// SetPageTokens keeps the page tokens of get in p.
func (s *Service) SetPageTokens(p PageTokenStore) { s.pages = p }

// Clock is the time s reads.
func (s *Service) Clock() func() time.Time { return s.now }

// The steps of Add, for tests that stop it part way.
func (s *Service) NewAnnotations(ctx context.Context, sc Scope, inputs []AnnotationInput, results map[string]AddItemResult) ([]newAnnotation, error) {
	return s.newAnnotations(ctx, sc, inputs, results)
}

func (s *Service) FeedAddAll(ctx context.Context, list []newAnnotation) error {
	return s.feedAddAll(ctx, list)
}

func (s *Service) InsertAnnotations(ctx context.Context, list []newAnnotation) ([]bool, error) {
	return s.insertAnnotations(ctx, list)
}

var (
	UserID  = userID
	UserIDs = userIDs
)
