package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// e3UserData is one page of users/data/get, each array reduced to keys.
type e3UserData struct {
	comments, reactions, recordings, notifications []string
	next                                           any
	raw                                            string
}

func (s *stack) e3UserData(c creds, org, user string, token any) e3UserData {
	s.t.Helper()
	q := map[string]any{"organizationId": org, "userId": user}
	if token != nil {
		q["pageToken"] = token
	}
	r := s.okAs(c, "/v2/users/data/get", q)
	d := r.DataMap()
	keys := func(array string, key func(m map[string]any) string) []string {
		list, ok := d[array].([]any)
		if !ok {
			s.t.Fatalf("users/data/get: %s is not an array: %s", array, r.Raw)
		}
		out := []string{}
		for _, v := range list {
			out = append(out, key(v.(map[string]any)))
		}
		slices.Sort(out)
		return out
	}
	page := e3UserData{next: r.Result["nextPageToken"], raw: string(r.Raw)}
	page.comments = keys("comments", func(m map[string]any) string {
		return fmt.Sprintf("%s/%s/%v:%s", m["documentId"], m["annotationId"], m["commentId"], m["commentText"])
	})
	page.reactions = keys("reactions", func(m map[string]any) string {
		return fmt.Sprintf("%s/%s:%s", m["documentId"], m["annotationId"], m["icon"])
	})
	page.recordings = keys("recordings", func(m map[string]any) string { return e3JSON(m) })
	page.notifications = keys("notifications", func(m map[string]any) string { return m["id"].(string) })
	return page
}

func TestUserDataThroughGateway(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	const org = "acme"
	s.ok("/v2/users/add", map[string]any{"organizationId": org, "users": []any{map[string]any{"userId": "ann", "name": "Ann", "email": "ann@example.com"}}})
	s.e3AddAnnotations(s.ws, org, "d1", e3AnnotationIn("t1", "", "ann", "ann one", "ann two"), e3AnnotationIn("t2", "", "bob", "bob only"))
	s.ok("/v2/commentannotations/comments/add", map[string]any{"organizationId": org, "documentId": "d1", "annotationId": "t2",
		"commentData": []any{e3CommentIn("bob", "ping {{ann}}")}})
	s.e3AddAnnotations(s.ws, org, "d2", e3AnnotationIn("t3", "", "ann", "ann in d2"))
	s.e3AddAnnotations(s.ws, "other-org", "d1", e3AnnotationIn("t4", "", "ann", "ann elsewhere"))
	for _, r := range []struct{ ann, icon, user string }{{"t2", "HEART", "ann"}, {"t2", "THUMBS_UP", "bob"}, {"t1", "SMILE", "ann"}} {
		s.ok("/v2/commentannotations/reactions/add", map[string]any{"organizationId": org, "documentId": "d1", "annotationId": r.ann, "icon": r.icon, "user": e3User(r.user)})
	}
	s.ok("/v1/notifications/add", e3NotificationIn(org, "d1", "to-ann", "bob", "ann"))
	s.ok("/v1/notifications/add", e3NotificationIn(org, "d1", "by-ann", "ann", "bob"))
	s.ok("/v1/notifications/add", e3NotificationIn(org, "d1", "to-bob", "bob", "bob"))
	s.ok("/v1/notifications/add", e3NotificationIn("other-org", "d1", "ann-elsewhere", "bob", "ann"))

	t.Run("a user's comments, reactions and notifications", func(t *testing.T) {
		p := s.e3UserData(s.ws, org, "ann", nil)
		wantComments := []string{"d1/t1/1:ann one", "d1/t1/2:ann two", "d1/t2/2:ping {{ann}}", "d2/t3/1:ann in d2"}
		if !slices.Equal(p.comments, wantComments) || !slices.Equal(p.reactions, []string{"d1/t1:SMILE", "d1/t2:HEART"}) ||
			len(p.recordings) != 0 || !slices.Equal(p.notifications, []string{"by-ann", "to-ann"}) || p.next != nil {
			t.Fatalf("ann's data: %+v", p)
		}
		user, _ := s.ok("/v2/users/data/get", map[string]any{"organizationId": org, "userId": "ann"}).DataMap()["user"].(map[string]any)
		membership, _ := user["organization"].(map[string]any)
		if user["userId"] != "ann" || user["name"] != "Ann" || user["email"] != "ann@example.com" || membership["organizationId"] != org || membership["accessRole"] != "editor" {
			t.Fatalf("ann's profile in users/data/get: %v", user)
		}
		b := s.e3UserData(s.ws, org, "bob", nil)
		if !slices.Equal(b.comments, []string{"d1/t2/1:bob only", "d1/t2/2:ping {{ann}}"}) || !slices.Equal(b.reactions, []string{"d1/t2:THUMBS_UP"}) ||
			!slices.Equal(b.notifications, []string{"by-ann", "to-ann", "to-bob"}) {
			t.Fatalf("bob's data: %+v", b)
		}
	})

	t.Run("a user with nothing gets empty arrays", func(t *testing.T) {
		p := s.e3UserData(s.ws, org, "nobody", nil)
		if len(p.comments)+len(p.reactions)+len(p.recordings)+len(p.notifications) != 0 || p.next != nil || !strings.Contains(p.raw, `"user":null`) {
			t.Fatalf("nobody's data: %s", p.raw)
		}
		raw := string(s.ok("/v2/users/data/get", map[string]any{"organizationId": org, "userId": "nobody"}).Raw)
		for _, part := range []string{`"comments":[]`, `"reactions":[]`, `"recordings":[]`, `"notifications":[]`, `"nextPageToken":null`} {
			if !strings.Contains(raw, part) {
				t.Fatalf("%s is not in the reply: %s", part, raw)
			}
		}
	})

	t.Run("deleted data leaves the user's data", func(t *testing.T) {
		s.ok("/v2/commentannotations/comments/delete", map[string]any{"organizationId": org, "documentId": "d1", "annotationId": "t1", "commentIds": []int{2}})
		s.ok("/v2/commentannotations/reactions/delete", map[string]any{"organizationId": org, "documentId": "d1", "annotationId": "t2", "icon": "HEART", "userId": "ann"})
		s.ok("/v1/notifications/delete", map[string]any{"organizationId": org, "notificationIds": []string{"to-ann"}})
		s.ok("/v2/commentannotations/delete", map[string]any{"organizationId": org, "documentId": "d2", "annotationIds": []string{"t3"}})
		p := s.e3UserData(s.ws, org, "ann", nil)
		if !slices.Equal(p.comments, []string{"d1/t1/1:ann one", "d1/t2/2:ping {{ann}}"}) ||
			!slices.Equal(p.reactions, []string{"d1/t1:SMILE"}) || !slices.Equal(p.notifications, []string{"by-ann"}) {
			t.Fatalf("ann's data after deletions: %+v", p)
		}
	})

	t.Run("errors", func(t *testing.T) {
		s.fails("/v2/users/data/get", map[string]any{"organizationId": org}, "INVALID_ARGUMENT", 400)
		s.fails("/v2/users/data/get", map[string]any{"userId": "ann"}, "INVALID_ARGUMENT", 400)
		s.fails("/v2/users/data/get", map[string]any{"organizationId": org, "userId": "ann", "pageToken": "not-a-token"}, "INVALID_ARGUMENT", 400)
	})
}

// TestUserDataPaging: more than 100 comments page by 100 under one
// nextPageToken; arrays exhausted on an earlier page come back empty, and
// the token is null once everything has been returned.
func TestUserDataPaging(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	const org = "acme"
	const total = 230
	var comments []any
	for i := 1; i <= total; i++ {
		comments = append(comments, e3CommentIn("heavy", fmt.Sprintf("c%03d", i)))
	}
	// One request carries at most 100 comments (the content.comments limit):
	// the annotation with the first 100, then comments/add with the rest.
	s.e3AddAnnotations(s.ws, org, "d1", map[string]any{"annotationId": "big", "commentData": comments[:100]})
	for start := 100; start < total; start += 100 {
		batch := comments[start:min(start+100, total)]
		s.ok("/v2/commentannotations/comments/add", map[string]any{"organizationId": org, "documentId": "d1", "annotationId": "big", "commentData": batch})
	}
	s.ok("/v2/commentannotations/reactions/add", map[string]any{"organizationId": org, "documentId": "d1", "annotationId": "big", "icon": "HEART", "user": e3User("heavy")})
	s.ok("/v1/notifications/add", e3NotificationIn(org, "d1", "n1", "someone", "heavy"))

	var seen []string
	var token any
	var pages []e3UserData
	for len(pages) < 5 {
		p := s.e3UserData(s.ws, org, "heavy", token)
		pages = append(pages, p)
		seen = append(seen, p.comments...)
		if p.next == nil {
			break
		}
		tok, ok := p.next.(string)
		if !ok || tok == "" {
			t.Fatalf("page %d: nextPageToken %v", len(pages), p.next)
		}
		token = tok
	}
	if len(pages) != 3 {
		t.Fatalf("%d pages, want 3 (100, 100, 30 comments)", len(pages))
	}
	for i, want := range []int{100, 100, 30} {
		if len(pages[i].comments) != want {
			t.Fatalf("page %d has %d comments, want %d", i+1, len(pages[i].comments), want)
		}
	}
	if len(pages[0].reactions) != 1 || len(pages[0].notifications) != 1 {
		t.Fatalf("first page: %d reactions, %d notifications; want 1 and 1", len(pages[0].reactions), len(pages[0].notifications))
	}
	for i, p := range pages[1:] {
		if len(p.reactions)+len(p.notifications)+len(p.recordings) != 0 {
			t.Fatalf("page %d repeats exhausted arrays: %s", i+2, p.raw)
		}
	}
	slices.Sort(seen)
	want := make([]string, total)
	for i := range want {
		want[i] = fmt.Sprintf("d1/big/%d:c%03d", i+1, i+1)
	}
	slices.Sort(want)
	if !slices.Equal(seen, want) {
		t.Fatalf("paged comments: %d seen, duplicates or gaps against %d", len(slices.Compact(slices.Clone(seen))), total)
	}

	t.Run("the token is bound to its workspace, organization and user", func(t *testing.T) {
		first := s.e3UserData(s.ws, org, "heavy", nil).next
		s.fails("/v2/users/data/get", map[string]any{"organizationId": org, "userId": "someone", "pageToken": first}, "INVALID_ARGUMENT", 400)
		s.fails("/v2/users/data/get", map[string]any{"organizationId": "other", "userId": "heavy", "pageToken": first}, "INVALID_ARGUMENT", 400)
		other := s.newWorkspace()
		s.failsAs(other, "/v2/users/data/get", map[string]any{"organizationId": org, "userId": "heavy", "pageToken": first}, "INVALID_ARGUMENT", 400)
		if p := s.e3UserData(s.ws, org, "heavy", first); len(p.comments) != 100 || p.next == nil {
			t.Fatalf("the token no longer works in its own query: %s", p.raw)
		}
	})
}
