package userdata

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/pagetoken"
)

// The arrays of a page, also the keys of the cursors.
const (
	arrayComments      = "comments"
	arrayReactions     = "reactions"
	arrayRecordings    = "recordings"
	arrayNotifications = "notifications"
)

// contentArrays are the arrays svc-content serves.
var contentArrays = []string{arrayComments, arrayReactions, arrayRecordings}

// cursors says where each array continues: a key for every array still to
// read (the value is the owning service's opaque cursor, "" for the start)
// and none for an exhausted array.
type cursors map[string]string

// startCursors reads every array from its start.
func startCursors() cursors {
	return cursors{arrayComments: "", arrayReactions: "", arrayRecordings: "", arrayNotifications: ""}
}

// pending reports whether the array is still to be read.
func (c cursors) pending(array string) bool {
	_, ok := c[array]
	return ok
}

// content is the part of c that svc-content reads, nil when it has nothing
// left to read.
func (c cursors) content() map[string]string {
	var out map[string]string
	for _, a := range contentArrays {
		if cur, ok := c[a]; ok {
			if out == nil {
				out = map[string]string{}
			}
			out[a] = cur
		}
	}
	return out
}

// queryKey binds page tokens to the user and organization they page
// through.
func queryKey(q Query) string {
	return pagetoken.QueryKey("users/data/get", map[string]string{"organizationId": q.OrganizationID, "userId": q.UserID})
}

// position resolves the query's page token into cursors (every array from
// its start without one).
func (s *Service) position(ctx context.Context, q Query) (cursors, error) {
	if q.PageToken == "" {
		return startCursors(), nil
	}
	raw, err := s.pages.Load(ctx, q.WorkspaceID, queryKey(q), q.PageToken)
	if err != nil {
		return nil, err
	}
	var c cursors
	if err := json.Unmarshal([]byte(raw), &c); err != nil || len(c) == 0 {
		return nil, api.Errorf(api.InvalidArgument, "pageToken is malformed; start again without a pageToken")
	}
	return c, nil
}

// nextToken stores next and returns its token, or "" when every array is
// exhausted.
func (s *Service) nextToken(ctx context.Context, q Query, next cursors) (string, error) {
	if len(next) == 0 {
		return "", nil
	}
	b, err := json.Marshal(next)
	if err != nil {
		return "", fmt.Errorf("encode cursors: %w", err)
	}
	return s.pages.Save(ctx, q.WorkspaceID, queryKey(q), string(b))
}
