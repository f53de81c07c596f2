package userdata

import (
	"context"

	"golang.org/x/sync/errgroup"

	"github.com/opencollab/backend/svc-identity/internal/identity"
)

// Get reads one page of the user's data: every array not yet exhausted,
// from the services that own them, in parallel. Any failed read fails the
// whole page.
func (s *Service) Get(ctx context.Context, q Query) (Page, error) {
	at, err := s.position(ctx, q)
	if err != nil {
		return Page{}, err
	}
	var (
		user    *identity.UserOverview
		content contentReply
		notes   notificationsReply
	)
	contentAt := at.content()
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) {
		user, err = s.profiles.UserOverview(gctx, q.WorkspaceID, q.OrganizationID, q.UserID)
		return err
	})
	if contentAt != nil {
		g.Go(func() error { return s.readContent(gctx, q, contentAt, &content) })
	}
	if at.pending(arrayNotifications) {
		g.Go(func() error { return s.readNotifications(gctx, q, at[arrayNotifications], &notes) })
	}
	if err := g.Wait(); err != nil {
		return Page{}, err
	}

	page, next := emptyPage(), cursors{}
	page.User = user
	content.addTo(&page, contentAt, next)
	if at.pending(arrayNotifications) {
		notes.addTo(&page, next)
	}
	if page.NextPageToken, err = s.nextToken(ctx, q, next); err != nil {
		return Page{}, err
	}
	return page, nil
}
