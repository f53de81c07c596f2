package notify

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
)

// Change is one item of notifications/update: the notification's id and
// the fields to change (nil: unchanged).
type Change struct {
	ID               string
	ActionUser       *User
	HeadlineTemplate *string
	HeadlineData     json.RawMessage
	BodyMessage      *string
	SourceData       json.RawMessage
	// ReadBy are users who read the notification now; with PersistRead it
	// also stays on their "For You" tab.
	ReadBy      []string
	PersistRead bool
}

// Outcome is the result of one item of a batch write.
type Outcome struct {
	Success bool
	Message string
}

// Per-item messages of the batch writes.
const (
	msgUpdated    = "Notification updated."
	msgDeleted    = "Notification deleted."
	msgNotMatched = "No notification with this id matches the request."
	msgContended  = "The notification kept changing concurrently; retry."
)

// maxWriteAttempts bounds the read-modify-write retries of one item.
const maxWriteAttempts = 5

// errGone means the notification disappeared (or stopped matching) while
// it was being updated.
var errGone = errors.New("notification gone")

// Update applies each change to the notification with its id among those
// matching f. Ids that match nothing get success false; so does one that
// keeps changing under us.
func (s *Service) Update(ctx context.Context, ws string, f Filter, changes []Change) (map[string]Outcome, error) {
	if len(changes) == 0 {
		return map[string]Outcome{}, nil
	}
	f.IDs = make([]string, 0, len(changes))
	for _, c := range changes {
		f.IDs = append(f.IDs, c.ID)
	}
	current, err := s.store.MatchNotifications(ctx, ws, f)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]Notification, len(current))
	for _, n := range current {
		byID[n.ID] = n
	}
	out := make(map[string]Outcome, len(changes))
	updated := make([]Notification, 0, len(changes))
	// What was written is announced even when a later item fails.
	defer func() { s.publish(ctx, EventUpdate, ws, updated) }()
	for _, c := range changes {
		n, ok := byID[c.ID]
		if !ok {
			out[c.ID] = Outcome{Message: msgNotMatched}
			continue
		}
		n, err := s.applyChange(ctx, ws, f, n, c)
		switch {
		case errors.Is(err, errGone):
			delete(byID, c.ID)
			out[c.ID] = Outcome{Message: msgNotMatched}
		case errors.Is(err, ErrConflict):
			out[c.ID] = Outcome{Message: msgContended}
		case err != nil:
			return nil, err
		default:
			byID[c.ID] = n // a repeated id builds on the earlier change
			out[c.ID] = Outcome{Success: true, Message: msgUpdated}
			updated = append(updated, n)
		}
	}
	return out, nil
}

// applyChange writes c over n. A change that only marks read is one
// atomic write; any other is read-modify-write, re-reading the
// notification and trying again when someone else wrote in between.
func (s *Service) applyChange(ctx context.Context, ws string, f Filter, n Notification, c Change) (Notification, error) {
	if c.onlyMarksRead() {
		n, err := s.store.MarkRead(ctx, ws, n.OrganizationID, c.ID, c.ReadBy, c.PersistRead, newRev())
		if errors.Is(err, ErrConflict) {
			return Notification{}, errGone
		}
		return n, err
	}
	f.IDs = []string{c.ID}
	for attempt := 1; ; attempt++ {
		next := c.apply(n)
		next.Rev = newRev()
		err := s.store.UpdateNotification(ctx, ws, next, n.Rev)
		if !errors.Is(err, ErrConflict) || attempt == maxWriteAttempts {
			return next, err
		}
		fresh, err := s.store.MatchNotifications(ctx, ws, f)
		if err != nil {
			return Notification{}, err
		}
		if len(fresh) == 0 {
			return Notification{}, errGone
		}
		n = fresh[0]
	}
}

// onlyMarksRead reports whether c changes nothing but the read state.
func (c Change) onlyMarksRead() bool {
	return len(c.ReadBy) > 0 && c.ActionUser == nil && c.HeadlineTemplate == nil && c.HeadlineData == nil &&
		c.BodyMessage == nil && c.SourceData == nil
}

// apply returns n with c's fields set.
func (c Change) apply(n Notification) Notification {
	if c.ActionUser != nil {
		n.ActionUser = *c.ActionUser
	}
	if c.HeadlineTemplate != nil {
		n.HeadlineTemplate = *c.HeadlineTemplate
	}
	if c.HeadlineData != nil {
		n.HeadlineData = c.HeadlineData
	}
	if c.BodyMessage != nil {
		n.BodyMessage = *c.BodyMessage
	}
	if c.SourceData != nil {
		n.SourceData = c.SourceData
	}
	if len(c.ReadBy) > 0 {
		n.ReadBy = sortedSet(slices.Concat(n.ReadBy, c.ReadBy))
		if c.PersistRead {
			n.PersistReadFor = sortedSet(slices.Concat(n.PersistReadFor, c.ReadBy))
		}
	}
	return n
}
