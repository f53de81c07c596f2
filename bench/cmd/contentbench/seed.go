package main

import (
	"context"
	"fmt"

	"github.com/opencollab/backend/deploy/local/benchkit"
)

const (
	benchOrg    = "bench-org"
	benchAuthor = "bench-author" // acts in the records that are not the data user's own
	benchTarget = "bench-target" // notified by the notifications/add throughput phase
	benchDocs   = 16             // documents writes spread over, so no one document's counter is hot
)

// shape is how comments are seeded: annotations/add creates perCall
// annotations a call with create comments each, then one comments/add per
// annotation appends more; every comment is written by the data user.
type shape struct {
	perCall int
	create  int
	append  int
}

func (s shape) perAnnotation() int { return s.create + s.append }

// annotationRef is a seeded annotation; comments/add must name its document.
type annotationRef struct{ id, doc string }

// dataUser is the user whose users/data/get is measured, and what has been
// written for them so far.
type dataUser struct {
	c             *benchkit.Client
	id            string
	shape         shape
	annotations   []annotationRef
	batches       int // commentannotations/add calls so far: the next one's document
	comments      int
	notifications int
}

// addUsers registers the bench users with identity, so the page's profile
// part is a real one.
func addUsers(ctx context.Context, c *benchkit.Client, ids ...string) error {
	users := make([]map[string]any, len(ids))
	for i, id := range ids {
		users[i] = map[string]any{"userId": id, "name": "Bench " + id, "email": id + "@example.com"}
	}
	return c.Call(ctx, "/v2/users/add", map[string]any{"organizationId": benchOrg, "users": users}, nil)
}

// growComments brings the user's comments to target: the annotations/add
// phase, then the comments/add phase.
func (u *dataUser) growComments(ctx context.Context, target, conc int) ([]phase, error) {
	delta := target - u.comments
	if delta <= 0 || delta%u.shape.perAnnotation() != 0 {
		return nil, fmt.Errorf("comments %d → %d: the step must be a positive multiple of %d", u.comments, target, u.shape.perAnnotation())
	}
	first, n := len(u.annotations), delta/u.shape.perAnnotation()
	batches := u.newAnnotations(n)
	fresh := u.annotations[first:]
	add := measure(ctx, "commentannotations/add", len(batches), conc, func(ctx context.Context, i int) (int, error) {
		return u.addAnnotations(ctx, batches[i])
	})
	u.comments += add.records
	if err := add.err(); err != nil {
		return nil, err
	}
	phases := []phase{add}
	if u.shape.append > 0 {
		more := measure(ctx, "commentannotations/comments/add", n, conc, func(ctx context.Context, i int) (int, error) {
			return u.appendComments(ctx, fresh[i])
		})
		u.comments += more.records
		if err := more.err(); err != nil {
			return nil, err
		}
		phases = append(phases, more)
	}
	return phases, nil
}

// newAnnotations names n more annotations, in batches of one
// commentannotations/add each; a batch's annotations share a document.
func (u *dataUser) newAnnotations(n int) [][]annotationRef {
	var batches [][]annotationRef
	for k := 0; k < n; k++ {
		if k%u.shape.perCall == 0 {
			batches = append(batches, nil)
			u.batches++
		}
		ref := annotationRef{
			id:  fmt.Sprintf("ann-%06d", len(u.annotations)),
			doc: fmt.Sprintf("bench-doc-%02d", (u.batches-1)%benchDocs),
		}
		u.annotations = append(u.annotations, ref)
		batches[len(batches)-1] = append(batches[len(batches)-1], ref)
	}
	return batches
}

// addAnnotations creates the annotations of one call (all in one
// document) and returns how many comments they were given.
func (u *dataUser) addAnnotations(ctx context.Context, anns []annotationRef) (int, error) {
	items := make([]map[string]any, len(anns))
	for i, a := range anns {
		items[i] = map[string]any{"annotationId": a.id, "commentData": u.commentData(a.id, 0, u.shape.create)}
	}
	var out result[map[string]struct {
		Success    bool    `json:"success"`
		CommentIDs []int64 `json:"commentIds"`
		Message    string  `json:"message"`
	}]
	err := u.c.Call(ctx, "/v2/commentannotations/add", map[string]any{
		"organizationId": benchOrg, "documentId": anns[0].doc, "commentAnnotations": items,
	}, &out)
	if err != nil {
		return 0, err
	}
	written := 0
	for key, item := range out.Data {
		if !item.Success {
			return written, fmt.Errorf("annotation %s: %s", key, item.Message)
		}
		written += len(item.CommentIDs)
	}
	return written, nil
}

// appendComments adds the shape's further comments to one annotation.
func (u *dataUser) appendComments(ctx context.Context, a annotationRef) (int, error) {
	var out result[[]int64]
	err := u.c.Call(ctx, "/v2/commentannotations/comments/add", map[string]any{
		"organizationId": benchOrg, "documentId": a.doc, "annotationId": a.id,
		"commentData": u.commentData(a.id, u.shape.create, u.shape.append),
	}, &out)
	return len(out.Data), err
}

func (u *dataUser) commentData(annotationID string, from, n int) []map[string]any {
	out := make([]map[string]any, n)
	for i := range out {
		text := fmt.Sprintf("benchmark comment %d on %s", from+i+1, annotationID)
		out[i] = map[string]any{
			"from":        map[string]any{"userId": u.id, "name": "Bench " + u.id, "email": u.id + "@example.com"},
			"commentText": text, "commentHtml": "<p>" + text + "</p>",
		}
	}
	return out
}

// growNotifications brings the user's notifications to target, one
// notifications/add a call, each notifying the user.
func (u *dataUser) growNotifications(ctx context.Context, target, conc int) (phase, error) {
	first := u.notifications
	p := measure(ctx, "notifications/add", target-first, conc, func(ctx context.Context, i int) (int, error) {
		return 1, addNotification(ctx, u.c, u.id, first+i)
	})
	u.notifications += p.calls - p.failures
	return p, p.err()
}

// addNotification stores the user's n-th notification, which notifies the
// user directly. Its id is fixed by (user, n), so every call adds one
// (re-adding an id would replace it).
func addNotification(ctx context.Context, c *benchkit.Client, user string, n int) error {
	id := fmt.Sprintf("ntf-%s-%06d", user, n)
	return c.Call(ctx, "/v1/notifications/add", map[string]any{
		"organizationId": benchOrg, "documentId": fmt.Sprintf("bench-doc-%02d", n%benchDocs),
		"notificationId": id, "actionUser": map[string]any{"userId": benchAuthor, "name": "Bench author"},
		"displayHeadlineMessageTemplate": "{actionUser} mentioned you",
		"displayBodyMessage":             "benchmark notification " + id,
		"notifyUsers":                    []map[string]any{{"userId": user}},
		"notifyAll":                      false,
	}, nil)
}
