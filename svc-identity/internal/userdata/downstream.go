package userdata

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/opencollab/backend/pkg/api"
)

// contentRequest is the body of ContentPath. Cursors has a key for each
// array to read ("" = from its start); an array without a key is not read.
type contentRequest struct {
	WorkspaceID    string            `json:"workspaceId"`
	OrganizationID string            `json:"organizationId"`
	UserID         string            `json:"userId"`
	Cursors        map[string]string `json:"cursors"`
	Limit          int               `json:"limit"`
}

// contentReply is the result.data of ContentPath. Next has a key for each
// array with more to read.
type contentReply struct {
	Comments   []json.RawMessage `json:"comments"`
	Reactions  []json.RawMessage `json:"reactions"`
	Recordings []json.RawMessage `json:"recordings"`
	Next       map[string]string `json:"next"`
}

// notificationsRequest is the body of NotificationsPath.
type notificationsRequest struct {
	WorkspaceID    string `json:"workspaceId"`
	OrganizationID string `json:"organizationId"`
	UserID         string `json:"userId"`
	After          string `json:"after"`
	Limit          int    `json:"limit"`
}

// notificationsReply is the result.data of NotificationsPath; Next is null
// once the notifications are exhausted.
type notificationsReply struct {
	Items []json.RawMessage `json:"items"`
	Next  *string           `json:"next"`
}

func (s *Service) readContent(ctx context.Context, q Query, at map[string]string, out *contentReply) error {
	err := s.content.Call(ctx, ContentPath, principal, contentRequest{
		WorkspaceID: q.WorkspaceID, OrganizationID: q.OrganizationID, UserID: q.UserID,
		Cursors: at, Limit: PageLimit,
	}, out)
	return downstreamError("svc-content", "comments, reactions and recordings", err)
}

func (s *Service) readNotifications(ctx context.Context, q Query, after string, out *notificationsReply) error {
	err := s.notify.Call(ctx, NotificationsPath, principal, notificationsRequest{
		WorkspaceID: q.WorkspaceID, OrganizationID: q.OrganizationID, UserID: q.UserID,
		After: after, Limit: PageLimit,
	}, out)
	return downstreamError("svc-notify", "notifications", err)
}

// downstreamError turns a failed downstream read into the error of the
// whole call. Statuses a client can act on pass through; anything else
// (unreachable, internal failure, a refused signature, an unreadable reply)
// is UNAVAILABLE, since the client can only retry.
func downstreamError(service, what string, err error) error {
	if err == nil {
		return nil
	}
	var apiErr *api.Error
	if errors.As(err, &apiErr) {
		switch apiErr.Status {
		case api.InvalidArgument, api.NotFound, api.FailedPrecondition, api.ResourceExhausted:
			return &api.Error{Status: apiErr.Status, Message: fmt.Sprintf("reading the user's %s failed: %s", what, apiErr.Message)}
		}
	}
	return api.Errorf(api.Unavailable,
		"the user's %s cannot be read now (%s is unavailable); no data was returned, retry the request", what, service)
}

// addTo puts the arrays that were asked for into page and their cursors
// into next. Arrays not asked for stay empty whatever the reply holds.
func (r contentReply) addTo(page *Page, asked map[string]string, next cursors) {
	arrays := map[string]struct {
		items []json.RawMessage
		dst   *[]json.RawMessage
	}{
		arrayComments:   {r.Comments, &page.Comments},
		arrayReactions:  {r.Reactions, &page.Reactions},
		arrayRecordings: {r.Recordings, &page.Recordings},
	}
	for name, a := range arrays {
		if _, ok := asked[name]; !ok {
			continue
		}
		if a.items != nil {
			*a.dst = a.items
		}
		// An empty cursor could only restart the array: treat it as the end.
		if cur := r.Next[name]; cur != "" {
			next[name] = cur
		}
	}
}

// addTo puts the notifications into page and their cursor into next.
func (r notificationsReply) addTo(page *Page, next cursors) {
	if r.Items != nil {
		page.Notifications = r.Items
	}
	if r.Next != nil && *r.Next != "" {
		next[arrayNotifications] = *r.Next
	}
}
