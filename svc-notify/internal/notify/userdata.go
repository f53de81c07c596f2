package notify

import (
	"context"

	"github.com/opencollab/backend/pkg/api"
)

// MaxUserDataPage is the most notifications one user-data page holds.
const MaxUserDataPage = 100

// UserNotifications is one page of the notifications userID is involved in
// (acted or is a direct recipient), most recently added first, for the
// user-data export. after is "" or the next cursor of the previous page;
// next is "" on the last page.
func (s *Service) UserNotifications(ctx context.Context, ws, orgID, userID, after string, limit int) (items []Record, next string, err error) {
	if limit < 1 || limit > MaxUserDataPage {
		return nil, "", api.Errorf(api.InvalidArgument, "field limit must be between 1 and %d", MaxUserDataPage)
	}
	before, err := decodeFeedCursor(after)
	if err != nil {
		return nil, "", err
	}
	ns, pos, err := s.store.UserFeed(ctx, ws, orgID, userID, before, limit)
	if err != nil {
		return nil, "", err
	}
	if pos > 0 {
		next = encodeFeedCursor(pos)
	}
	return records(ns, userID), next, nil
}
