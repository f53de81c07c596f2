package e2e

import (
	"slices"
	"strings"
	"testing"

	"github.com/opencollab/backend/deploy/local/system"
)

// The verifyUserPermissions of notifications (and comments) with the real
// svc-identity deciding: its grants, access types and their changes.

// vaSetup gives org-va/doc-va a reader (a grant of the document) and a
// member (of the organization; the document is organizationPrivate); the
// outsider has nothing.
func (s *stack) vaSetup() {
	s.t.Helper()
	s.ok("/v2/users/add", map[string]any{"organizationId": "org-va", "documentId": "doc-va", "createDocument": true,
		"users": []any{e3User("reader")}})
	s.ok("/v2/users/add", map[string]any{"organizationId": "org-va", "users": []any{e3User("member")}})
}

// vaNotification is a verified v2 add of doc-va for recipients, with
// recipientUser as the headline's recipient when not "".
func vaNotification(id, recipientUser string, recipients ...string) map[string]any {
	n := e3NotificationIn("org-va", "doc-va", id, "actor", recipients...)
	n["verifyUserPermissions"] = true
	if recipientUser != "" {
		n["displayHeadlineMessageTemplateData"] = map[string]any{"recipientUser": e3User(recipientUser)}
	}
	return n
}

// vaRecipients is notifyUsers of the stored notification id (nil when it
// was not stored).
func (s *stack) vaRecipients(id string) map[string]any {
	s.t.Helper()
	n := s.e3Notification(s.ws, "org-va", id, "")
	if n == nil {
		return nil
	}
	users, _ := n["notifyUsers"].(map[string]any)
	if users == nil {
		users = map[string]any{}
	}
	return users
}

func TestVerifiedNotificationsFollowIdentity(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	s.vaSetup()

	// The whole organization (notifyAll, the default): its users with
	// access, decided now, see it on the "all" tab; only recipients get
	// it on "For You".
	r := s.ok("/v2/notifications/add", with(vaNotification("n0", "", "reader"), "notifyAll", true))
	if d := r.DataMap(); d["success"] != true || !strings.Contains(d["message"].(string), "2 users") {
		t.Fatalf("n0 answered %s, want success for 2 users", r.Raw)
	}
	s.vaTabs(t, "n0", map[string][2]bool{"member": {true, false}, "reader": {true, true}, "outsider": {false, false}})

	r = s.ok("/v2/notifications/add", vaNotification("n1", "member", "reader", "outsider"))
	if d := r.DataMap(); d["success"] != true || !strings.Contains(d["message"].(string), "outsider") {
		t.Fatalf("n1 answered %s", r.Raw)
	}
	if got := e3JSON(s.vaRecipients("n1")); got != `{"member":true,"reader":true}` {
		t.Fatalf("n1 stored for %s, want member and reader", got)
	}

	// Identity decides as it is now: restricted, the document is the
	// reader's only; the member's organization grant no longer reaches it.
	s.ok("/v2/organizations/documents/access/update", map[string]any{"organizationId": "org-va", "documentIds": []string{"doc-va"}, "accessType": "restricted"})
	s.ok("/v2/notifications/add", vaNotification("n2", "member", "reader"))
	if got := e3JSON(s.vaRecipients("n2")); got != `{"reader":true}` {
		t.Fatalf("n2 stored for %s, want reader", got)
	}

	// Nobody with access, or a document identity does not have: nothing
	// stored, success false.
	for id, body := range map[string]map[string]any{
		"n3": vaNotification("n3", "", "outsider", "member"),
		"n4": with(vaNotification("n4", "", "reader"), "documentId", "doc-unknown"),
	} {
		r := s.ok("/v2/notifications/add", body)
		if d := r.DataMap(); d["success"] != false || d["message"] == "" {
			t.Errorf("%s answered %s, want success false", id, r.Raw)
		}
		if got := s.vaRecipients(id); got != nil {
			t.Errorf("%s stored for %v although nobody has access", id, got)
		}
	}

	// The whole organization, now that the document is restricted: the
	// reader (a grant of it) sees it, the member no longer; n0, added
	// before, stays as it was decided.
	all := vaNotification("n5", "")
	if r := s.ok("/v2/notifications/add", all); r.DataMap()["success"] != true {
		t.Fatalf("n5 answered %s", r.Raw)
	}
	s.vaTabs(t, "n5", map[string][2]bool{"member": {false, false}, "reader": {true, false}, "outsider": {false, false}})
	s.vaTabs(t, "n0", map[string][2]bool{"member": {true, false}})
}

// vaTabs checks, per user, whether notification id of org-va is on their
// "all" and "For You" tabs.
func (s *stack) vaTabs(t *testing.T, id string, want map[string][2]bool) {
	t.Helper()
	for user, w := range want {
		for i, tab := range []string{"all", "forYou"} {
			got := slices.Contains(s.e3NotificationIDs(s.ws, "org-va", map[string]any{"userId": user, "tab": tab}), id)
			if got != w[i] {
				t.Errorf("%s on %s's %s tab: %v, want %v", id, user, tab, got, w[i])
			}
		}
	}
}

// Without svc-identity nobody is notified unchecked.
func TestVerifiedNotificationsWithoutIdentity(t *testing.T) {
	t.Parallel()
	s := startStack(t, func(o *system.Options) { o.Services = []string{"workspace", "notify"} })
	s.fails("/v2/notifications/add", vaNotification("n1", "", "reader"), "UNAVAILABLE", 503)
	if got := s.vaRecipients("n1"); got != nil {
		t.Fatalf("n1 stored for %v without identity", got)
	}
	s.ok("/v2/notifications/add", e3NotificationIn("org-va", "doc-va", "plain", "actor", "reader"))
}

// vaAnnotation is a verified commentannotations/add of doc with one
// annotation, a comment by each author.
func vaAnnotation(doc, id string, authors ...string) map[string]any {
	comments := make([]any, len(authors))
	for i, a := range authors {
		comments[i] = e3CommentIn(a, "by "+a)
	}
	return map[string]any{"organizationId": "org-va", "documentId": doc, "verifyUserPermissions": true,
		"commentAnnotations": []any{map[string]any{"annotationId": id, "commentData": comments}}}
}

func TestVerifiedCommentAuthorsFollowIdentity(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	s.vaSetup()

	s.ok("/v2/commentannotations/add", vaAnnotation("doc-va", "a1", "reader", "member"))
	r := s.fails("/v2/commentannotations/add", vaAnnotation("doc-va", "a2", "reader", "outsider"), "PERMISSION_DENIED", 403)
	if msg, _ := r.Error["message"].(string); !strings.Contains(msg, "outsider") || strings.Contains(msg, "reader") {
		t.Fatalf("refusal %s does not name the outsider (only)", r.Raw)
	}
	s.fails("/v2/commentannotations/add", vaAnnotation("doc-unknown", "a3", "reader"), "PERMISSION_DENIED", 403)

	comment := func(author string) map[string]any {
		return map[string]any{"organizationId": "org-va", "documentId": "doc-va", "annotationId": "a1", "verifyUserPermissions": true,
			"commentData": []any{e3CommentIn(author, "reply by "+author)}}
	}
	s.ok("/v2/commentannotations/comments/add", comment("member"))
	// Restricted: the member's organization grant no longer reaches it.
	s.ok("/v2/organizations/documents/access/update", map[string]any{"organizationId": "org-va", "documentIds": []string{"doc-va"}, "accessType": "restricted"})
	s.fails("/v2/commentannotations/comments/add", comment("member"), "PERMISSION_DENIED", 403)
	s.ok("/v2/commentannotations/comments/add", comment("reader"))

	if got := s.e3DocumentAnnotations(s.ws, "org-va", "doc-va"); len(got) != 1 || got[0] != "a1" {
		t.Fatalf("annotations %v, want a1 only", got)
	}
	texts := e3CommentTexts(s.e3Annotation(s.ws, "org-va", "doc-va", "a1"))
	want := []string{`1:"by reader"`, `2:"by member"`, `3:"reply by member"`, `4:"reply by reader"`}
	if strings.Join(texts, ",") != strings.Join(want, ",") {
		t.Fatalf("a1's comments %v, want %v", texts, want)
	}
}

// Without svc-identity no author goes unchecked.
func TestVerifiedCommentAuthorsWithoutIdentity(t *testing.T) {
	t.Parallel()
	s := startStack(t, func(o *system.Options) { o.Services = []string{"workspace", "content"} })
	s.fails("/v2/commentannotations/add", vaAnnotation("doc-va", "a1", "reader"), "UNAVAILABLE", 503)
	if got := s.e3DocumentAnnotations(s.ws, "org-va", "doc-va"); len(got) != 0 {
		t.Fatalf("annotations %v stored without identity", got)
	}
}
