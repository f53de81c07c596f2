package annotations

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
)

// The user feed lists, per (workspace, organization, user, kind), the
// comments the user wrote, is mentioned in or is the assignee of, and the
// reactions the user made; users/data/get pages through it.
//
// A feed is a sequence of entries, each naming an annotation and a row key
// (FeedStore; internal/store keeps it). Entries are pointers: a page renders
// from the annotations (read by _id) and skips entries they no longer
// back, so a stale entry is never shown.
const (
	KindComment  = "comment"
	KindReaction = "reaction"
)

// FeedRow is one (user, comment) or (user, reaction) membership.
type FeedRow struct {
	Kind, Item, User string // Item: commentId in decimal, or reactionId
}

// Key is the row's key inside its annotation (stored in IndexedRows).
func (r FeedRow) Key() string { return jsonKey(r.Kind, r.Item, r.User) }

// ParseFeedRow reads a row back from its key.
func ParseFeedRow(key string) (FeedRow, error) {
	var parts []string
	if err := json.Unmarshal([]byte(key), &parts); err != nil || len(parts) != 3 {
		return FeedRow{}, fmt.Errorf("bad feed row key %q", key)
	}
	return FeedRow{parts[0], parts[1], parts[2]}, nil
}

func jsonKey(parts ...any) string {
	b, _ := json.Marshal(parts)
	return string(b)
}

// feedRows lists the rows annotation a must have in the feed.
func feedRows(a *Annotation) []string {
	var keys []string
	add := func(r FeedRow) {
		if k := r.Key(); !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	for _, c := range a.Comments {
		for _, uid := range a.involvedIn(c) {
			add(FeedRow{KindComment, strconv.FormatInt(c.CommentID, 10), uid})
		}
	}
	for _, r := range a.Reactions {
		for _, fu := range r.FromUsers {
			add(FeedRow{KindReaction, r.ReactionID, userID(fu.From)})
		}
	}
	return keys
}

// without returns the keys of list that are not in other.
func without(list, other []string) []string {
	var out []string
	for _, k := range list {
		if !slices.Contains(other, k) {
			out = append(out, k)
		}
	}
	return out
}

// feedAdd puts rows (keys of annotation a) into their users' feeds. It is
// idempotent: a row that already has a sequence number keeps it and its
// entry is re-added as a set member. Callers run it before the annotation
// write that records the rows, so a failed write leaves at most entries the
// annotation does not back, which pages skip.
func (s *Service) feedAdd(ctx context.Context, a *Annotation, keys []string) error {
	rows := make([]FeedItem, len(keys))
	for i, k := range keys {
		rows[i] = FeedItem{a, k}
	}
	return s.feeds.Add(ctx, rows)
}

// feedAddAll is feedAdd of the rows of many new annotations, batched
// across them: one insert of the heads (then an $inc of each that exists),
// one of the row documents, one of the buckets of the feeds it starts
// (then an update of each other bucket).
func (s *Service) feedAddAll(ctx context.Context, list []newAnnotation) error {
	var rows []FeedItem
	for _, a := range list {
		for _, k := range a.IndexedRows {
			rows = append(rows, FeedItem{a.Annotation, k})
		}
	}
	return s.feeds.Add(ctx, rows)
}

// FeedItem is one row key of an annotation.
type FeedItem struct {
	Annotation *Annotation
	Key        string
}

// feedRemove takes rows out of their feeds. A failure is logged: the write
// it follows is done, and a leftover entry is skipped by every page.
func (s *Service) feedRemove(ctx context.Context, a *Annotation, keys []string) {
	for _, key := range keys {
		if err := s.feeds.Remove(ctx, a, key); err != nil {
			s.logger.ErrorContext(ctx, "annotations: feed cleanup failed", "annotationId", a.AnnotationID, "error", err)
			return
		}
	}
}
