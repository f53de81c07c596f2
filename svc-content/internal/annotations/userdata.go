package annotations

import (
	"context"
	"encoding/base64"
	"errors"
	"slices"
	"strconv"
)

// UserData page sizes: users/data/get returns up to 100 items per array.
const (
	DefaultUserDataLimit = 100
	MaxUserDataLimit     = 100
)

// Array names of UserDataQuery.Cursors and UserDataPage.Next.
const (
	ArrayComments   = "comments"
	ArrayReactions  = "reactions"
	ArrayRecordings = "recordings"
)

// UserDataQuery asks for one page of a user's content data.
//
// Cursors nil or empty asks for the first page of every array. Otherwise it
// is the Next of the previous page: an array without a cursor there is
// exhausted and comes back empty. So once Next is empty, do not call again.
type UserDataQuery struct {
	WorkspaceID    string            `json:"workspaceId"`
	OrganizationID string            `json:"organizationId"`
	UserID         string            `json:"userId"`
	Cursors        map[string]string `json:"cursors,omitempty"`
	Limit          int               `json:"limit,omitempty"`
}

// UserDataPage is one page: comments the user wrote, is mentioned in or is
// the assignee of (one entry per comment), reactions the user made, and
// recordings (always empty: this deployment has no recording operations).
// Next holds the cursor of each array that has more; an absent key means
// that array is exhausted.
type UserDataPage struct {
	Comments   []map[string]any  `json:"comments"`
	Reactions  []map[string]any  `json:"reactions"`
	Recordings []map[string]any  `json:"recordings"`
	Next       map[string]string `json:"next,omitempty"`
}

// UserData returns one page of the user's comments and reactions: for each,
// a few feed buckets and the annotations their entries name, all read by
// exact _id (feed.go), so its cost does not grow with the user's total.
func (s *Service) UserData(ctx context.Context, q UserDataQuery) (UserDataPage, error) {
	if q.WorkspaceID == "" || q.OrganizationID == "" || q.UserID == "" {
		return UserDataPage{}, invalid("workspaceId, organizationId and userId are required")
	}
	limit := q.Limit
	if limit <= 0 || limit > MaxUserDataLimit {
		limit = DefaultUserDataLimit
	}
	first := len(q.Cursors) == 0
	page := UserDataPage{Comments: []map[string]any{}, Reactions: []map[string]any{}, Recordings: []map[string]any{}, Next: map[string]string{}}
	for _, kind := range []string{KindComment, KindReaction} {
		array := ArrayComments
		if kind == KindReaction {
			array = ArrayReactions
		}
		cursor, ok := q.Cursors[array]
		if !first && !ok {
			continue // exhausted on an earlier page
		}
		after, err := decodeCursor(cursor, array)
		if err != nil {
			return UserDataPage{}, err
		}
		items, next, err := s.userItems(ctx, q, kind, after, limit)
		if err != nil {
			return UserDataPage{}, err
		}
		if kind == KindComment {
			page.Comments = items
		} else {
			page.Reactions = items
		}
		if next != 0 {
			page.Next[array] = base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatInt(next, 10)))
		}
	}
	if len(page.Next) == 0 {
		page.Next = nil
	}
	return page, nil
}

func decodeCursor(c, array string) (int64, error) {
	if c == "" {
		return 0, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(c)
	seq, perr := strconv.ParseInt(string(b), 10, 64)
	if err != nil || perr != nil || seq < 0 {
		return 0, invalid("cursor of %s is malformed", array)
	}
	return seq, nil
}

// userItems renders up to limit items of one kind after sequence number
// `after` and returns the cursor of the next page ("" when none follows).
func (s *Service) userItems(ctx context.Context, q UserDataQuery, kind string, after int64, limit int) ([]map[string]any, int64, error) {
	entries, err := s.feeds.Page(ctx, q, kind, after, limit+1)
	if err != nil {
		return nil, 0, err
	}
	var next int64
	if len(entries) > limit {
		entries = entries[:limit]
		next = entries[limit-1].Seq
	}
	byID := map[string]*Annotation{}
	items := make([]map[string]any, 0, len(entries))
	for _, e := range entries {
		a, ok := byID[e.AnnotationID]
		if !ok {
			if a, err = s.loadByKey(ctx, q.WorkspaceID, e.AnnotationID); err != nil {
				return nil, 0, err
			}
			byID[e.AnnotationID] = a
		}
		r, err := ParseFeedRow(e.Key)
		if a == nil || err != nil || a.OrganizationID != q.OrganizationID || r.User != q.UserID {
			continue // deleted since the entry was written
		}
		var item map[string]any
		if kind == KindComment {
			id, _ := strconv.ParseInt(r.Item, 10, 64)
			item = commentItem(a, id, q.UserID)
		} else {
			item = reactionItem(a, r.Item, q.UserID)
		}
		if item != nil {
			items = append(items, item)
		}
	}
	return items, next, nil
}

// FeedEntry is one feed entry: its sequence number, the annotation it
// names and the row key there.
type FeedEntry struct {
	Seq          int64
	AnnotationID string
	Key          string
}

// loadByKey reads an annotation by _id (nil when it is gone).
func (s *Service) loadByKey(ctx context.Context, ws, id string) (*Annotation, error) {
	a, err := s.annotations.Load(ctx, ws, id)
	if errors.Is(err, ErrNoAnnotation) {
		return nil, nil
	}
	return a, err
}

// commentItem renders a comment entry, or nil when the annotation no
// longer backs the row (comment gone, user no longer involved).
func commentItem(a *Annotation, commentID int64, uid string) map[string]any {
	c := a.comment(commentID)
	if c == nil || !slices.Contains(a.involvedIn(*c), uid) {
		return nil
	}
	return map[string]any{
		"annotationId": a.AnnotationID, "documentId": a.DocumentID, "organizationId": a.OrganizationID,
		"commentId": c.CommentID, "commentText": c.CommentText, "commentHtml": c.CommentHTML,
		"from": c.From, "createdAt": c.CreatedAt,
	}
}

func reactionItem(a *Annotation, reactionID, uid string) map[string]any {
	for _, r := range a.Reactions {
		if r.ReactionID != reactionID {
			continue
		}
		for _, fu := range r.FromUsers {
			if userID(fu.From) == uid {
				return map[string]any{
					"annotationId": a.AnnotationID, "reactionId": r.ReactionID, "icon": r.Icon,
					"documentId": a.DocumentID, "organizationId": a.OrganizationID, "createdAt": fu.LastUpdated,
				}
			}
		}
	}
	return nil
}
