package notify

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"regexp"

	"github.com/opencollab/backend/pkg/api"
)

// customID is what a client-chosen notificationId may look like.
var customID = regexp.MustCompile(`^[A-Za-z0-9_-]{1,128}$`)

// Add stores n as a new notification (unread by everyone) and returns it
// with its id and timestamp. Without an id it gets a random one; with the id
// of an existing notification of the organization it replaces that one, so
// a retried add leaves one notification.
func (s *Service) Add(ctx context.Context, ws string, n Notification) (Notification, error) {
	if err := validateNew(n); err != nil {
		return Notification{}, err
	}
	if n.ID == "" {
		n.ID = s.newID()
	}
	n.ReadBy, n.PersistReadFor = nil, nil
	n.Timestamp = s.now().UnixMilli()
	n.Rev = newRev()
	if err := s.store.SaveNotification(ctx, ws, n); err != nil {
		return Notification{}, err
	}
	s.publish(ctx, EventAdd, ws, []Notification{n})
	return n, nil
}

func validateNew(n Notification) error {
	if n.ID != "" && !customID.MatchString(n.ID) {
		return api.Errorf(api.InvalidArgument, "field notificationId may contain only letters, digits, '_' and '-' (at most 128)")
	}
	if !n.ResolverUsed {
		if n.HeadlineTemplate == "" {
			return api.Errorf(api.InvalidArgument, "field displayHeadlineMessageTemplate is required")
		}
		if n.BodyMessage == "" {
			return api.Errorf(api.InvalidArgument, "field displayBodyMessage is required")
		}
	}
	if !n.NotifyAll && len(n.Recipients()) == 0 {
		return api.Errorf(api.InvalidArgument, "notifyAll is false: give the recipients in notifyUsers or displayHeadlineMessageTemplateData.recipientUser")
	}
	return nil
}

// newRev is a fresh revision for a write.
func newRev() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
