package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// migrationWait bounds how long a migration of a small document may take:
// seconds unloaded, over 20 s seen with the 2-core machine at load 15-22
// (the migration then ended a few seconds after the test gave up).
const migrationWait = 60 * time.Second

// e3MigrationEnd polls migrate/status until the migration is completed or
// failed and returns the last status data.
func (s *stack) e3MigrationEnd(c creds, org, id string) map[string]any {
	s.t.Helper()
	var last map[string]any
	e3Eventually(s.t, migrationWait, "migration "+id+" ends", func() string {
		r := s.okAs(c, "/v2/organizations/documents/migrate/status", map[string]any{"organizationId": org, "migrationId": id})
		last = r.DataMap()
		switch last["status"] {
		case "completed", "failed":
			return ""
		case "pending", "in_progress":
			return e3JSON(last)
		}
		s.t.Fatalf("migration status outside the spec's states: %s", r.Raw)
		return ""
	})
	if last["migrationId"] != id {
		s.t.Fatalf("status of %s answers %v", id, last)
	}
	return last
}

// e3StartMigration starts moving org/doc to newDoc and returns the id.
func (s *stack) e3StartMigration(c creds, org, doc, newDoc string) string {
	s.t.Helper()
	r := s.okAs(c, "/v2/organizations/documents/migrate", map[string]any{"organizationId": org, "documentId": doc, "newDocumentId": newDoc})
	id, _ := r.DataMap()["migrationId"].(string)
	if id == "" {
		s.t.Fatalf("migrate: no migrationId in %s", r.Raw)
	}
	return id
}

// e3DocumentExists reports whether identity has the document record.
func (s *stack) e3DocumentExists(c creds, org, doc string) bool {
	s.t.Helper()
	got := objects(s.t, s.okAs(c, "/v2/organizations/documents/get", map[string]any{"organizationId": org, "documentIds": []string{doc}}))
	if len(got) != 1 {
		s.t.Fatalf("documents/get %s answered %v", doc, got)
	}
	return got[0]["success"] != false
}

// e3DocumentView reads everything stored under one document through every
// service, as text, so two views are equal only when nothing moved. Each
// line names what it read, so a difference says which service holds what.
func (s *stack) e3DocumentView(c creds, org, doc string) string {
	s.t.Helper()
	var b strings.Builder
	read := func(what, path string, data map[string]any, keys ...string) {
		s.t.Helper()
		r := s.okAs(c, path, data)
		var items []string
		switch d := r.Data().(type) {
		case []any:
			for _, v := range d {
				m, _ := v.(map[string]any)
				var parts []string
				for _, k := range keys {
					parts = append(parts, e3JSON(m[k]))
				}
				items = append(items, strings.Join(parts, " "))
			}
		default:
			items = append(items, e3JSON(d))
		}
		slices.Sort(items)
		fmt.Fprintf(&b, "%s: %s\n", what, strings.Join(items, " | "))
	}
	read("crdt", "/v2/crdt/get", map[string]any{"organizationId": org, "documentId": doc}, "id", "data")
	read("annotations", "/v2/commentannotations/get", map[string]any{"organizationId": org, "documentId": doc}, "annotationId", "documentId", "comments", "reactionAnnotations", "location")
	read("notifications", "/v1/notifications/get", map[string]any{"organizationId": org, "documentId": doc}, "id", "metadata", "displayBodyMessage")
	read("config of bob", "/v1/notifications/config/get", map[string]any{"organizationId": org, "userId": "bob", "documentIds": []string{doc}}, "config")
	read("activities", "/v2/activities/get", map[string]any{"organizationId": org, "documentId": doc}, "id", "metadata", "actionType")
	read("members", "/v2/users/get", map[string]any{"organizationId": org, "documentId": doc}, "userId")
	fmt.Fprintf(&b, "document record: %v\n", s.e3DocumentExists(c, org, doc))
	return b.String()
}

// e3SeedDocument puts data of org/doc into every service: identity
// (record and members), CRDT, an annotation with comments and a reaction,
// a notification and a configuration, two activities.
func (s *stack) e3SeedDocument(c creds, org, doc string) {
	s.t.Helper()
	s.okAs(c, "/v2/users/add", map[string]any{"organizationId": org, "users": userRefs("ann")})
	s.okAs(c, "/v2/users/add", map[string]any{"organizationId": org, "documentId": doc, "createDocument": true, "users": userRefs("ann", "bob")})
	s.okAs(c, "/v2/crdt/add", map[string]any{"organizationId": org, "documentId": doc, "editorId": "e1", "type": "text", "data": "first text of " + doc})
	s.okAs(c, "/v2/crdt/update", map[string]any{"organizationId": org, "documentId": doc, "editorId": "e1", "type": "text", "data": "text of " + doc})
	s.e3AddAnnotations(c, org, doc, e3AnnotationIn("ann-"+doc, "loc-1", "ann", "first", "second"))
	s.okAs(c, "/v2/commentannotations/reactions/add", map[string]any{"organizationId": org, "documentId": doc, "annotationId": "ann-" + doc, "icon": "HEART", "user": e3User("bob")})
	s.okAs(c, "/v1/notifications/add", e3NotificationIn(org, doc, "n-"+doc, "ann", "bob"))
	s.okAs(c, "/v1/notifications/config/set", map[string]any{"organizationId": org, "userIds": []string{"bob"}, "documentIds": []string{doc}, "config": map[string]any{"inbox": "NONE"}})
	s.okAs(c, "/v2/activities/add", map[string]any{"organizationId": org, "documentId": doc, "activities": []any{
		e3ActivityIn("act1-"+doc, "comment", "comment.add", "ann"), e3ActivityIn("act2-"+doc, "crdt", "crdt.edit", "bob")}})
}

func TestDocumentMigrationThroughGateway(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	const org = "acme"
	s.e3SeedDocument(s.ws, org, "old")
	s.okAs(s.ws, "/v2/crdt/add", map[string]any{"organizationId": org, "documentId": "keep", "editorId": "e1", "type": "text", "data": "kept"})
	s.okAs(s.ws, "/v2/activities/add", map[string]any{"organizationId": org, "documentId": "keep", "activities": []any{e3ActivityIn("k1", "comment", "comment.add", "ann")}})
	// The same document id in another organization stays where it is.
	// (Annotation and activity ids are unique within the workspace, so
	// these get their own.)
	s.okAs(s.ws, "/v2/users/add", map[string]any{"organizationId": "other-org", "documentId": "old", "createDocument": true, "users": userRefs("bob")})
	s.okAs(s.ws, "/v2/crdt/add", map[string]any{"organizationId": "other-org", "documentId": "old", "editorId": "e1", "type": "text", "data": "other org"})
	s.e3AddAnnotations(s.ws, "other-org", "old", e3AnnotationIn("ann-other-org", "loc-1", "ann", "other org"))
	s.okAs(s.ws, "/v1/notifications/add", e3NotificationIn("other-org", "old", "n-old", "ann", "bob"))
	s.okAs(s.ws, "/v1/notifications/config/set", map[string]any{"organizationId": "other-org", "userIds": []string{"bob"}, "documentIds": []string{"old"}, "config": map[string]any{"email": "MINE"}})
	s.okAs(s.ws, "/v2/activities/add", map[string]any{"organizationId": "other-org", "documentId": "old", "activities": []any{e3ActivityIn("act-other-org", "comment", "comment.add", "ann")}})
	otherOrgView := s.e3DocumentView(s.ws, "other-org", "old")
	emptyView := s.e3DocumentView(s.ws, org, "never-used")
	oldView := s.e3DocumentView(s.ws, org, "old")
	keepView := s.e3DocumentView(s.ws, org, "keep")

	t.Run("refused starts", func(t *testing.T) {
		s.fails("/v2/organizations/documents/migrate", map[string]any{"organizationId": org, "documentId": "old", "newDocumentId": "old"}, "INVALID_ARGUMENT", 400)
		s.fails("/v2/organizations/documents/migrate", map[string]any{"organizationId": org, "documentId": "old"}, "INVALID_ARGUMENT", 400)
		s.fails("/v2/organizations/documents/migrate", map[string]any{"documentId": "old", "newDocumentId": "new"}, "INVALID_ARGUMENT", 400)
		s.fails("/v2/organizations/documents/migrate/status", map[string]any{"organizationId": org, "migrationId": "mig_unknown"}, "NOT_FOUND", 404)
		s.fails("/v2/organizations/documents/migrate/status", map[string]any{"organizationId": org}, "INVALID_ARGUMENT", 400)

		// A target with data in any one service is refused.
		s.ok("/v1/notifications/add", e3NotificationIn(org, "t-notify", "tn", "ann"))
		s.ok("/v1/notifications/config/set", map[string]any{"organizationId": org, "userIds": []string{"bob"}, "documentIds": []string{"t-config"}, "config": map[string]any{"email": "NONE"}})
		s.ok("/v2/activities/add", map[string]any{"organizationId": org, "documentId": "t-activity", "activities": []any{e3ActivityIn("ta", "comment", "comment.add", "ann")}})
		s.e3AddAnnotations(s.ws, org, "t-annotation", e3AnnotationIn("ta", "", "ann", "x"))
		s.ok("/v2/organizations/documents/add", map[string]any{"organizationId": org, "documents": []any{map[string]any{"documentId": "t-identity"}}})
		s.ok("/v2/users/add", map[string]any{"organizationId": org, "documentId": "t-member", "createDocument": true, "users": userRefs("ann")})
		for _, target := range []string{"keep", "t-notify", "t-config", "t-activity", "t-annotation", "t-identity", "t-member"} {
			r := s.call("/v2/organizations/documents/migrate", map[string]any{"organizationId": org, "documentId": "old", "newDocumentId": target})
			if r.Status() != "ALREADY_EXISTS" || r.Code != 409 {
				t.Errorf("migrating onto %s: got %d %s", target, r.Code, r.Raw)
			}
		}
		if got := s.e3DocumentView(s.ws, org, "old"); got != oldView {
			t.Fatalf("refused migrations moved data:\n%s---\n%s", oldView, got)
		}
	})

	t.Run("completed migration moves everything", func(t *testing.T) {
		id := s.e3StartMigration(s.ws, org, "old", "new")
		end := s.e3MigrationEnd(s.ws, org, id)
		if end["status"] != "completed" || end["error"] != nil {
			t.Fatalf("migration ended %v", end)
		}
		// Everything old had now answers under new, with the new id inside.
		want := strings.ReplaceAll(oldView, `"old"`, `"new"`)
		if got := s.e3DocumentView(s.ws, org, "new"); got != want {
			t.Fatalf("under the new id:\n got %s\nwant %s", got, want)
		}
		if got := s.e3DocumentView(s.ws, org, "old"); got != emptyView {
			t.Fatalf("left under the old id:\n%s\nwant as empty as\n%s", got, emptyView)
		}
		if got := s.e3DocumentView(s.ws, org, "keep"); got != keepView {
			t.Fatalf("another document changed:\n%s---\n%s", keepView, got)
		}
		if got := s.e3DocumentView(s.ws, "other-org", "old"); got != otherOrgView {
			t.Fatalf("the same document id in another organization changed:\n%s---\n%s", otherOrgView, got)
		}
		// The annotation keeps its comments' ids and is reachable by them.
		got := objects(t, s.ok("/v2/commentannotations/comments/get", map[string]any{"organizationId": org, "documentId": "new", "annotationId": "ann-old"}))
		if len(got) != 2 {
			t.Fatalf("comments under new: %v", got)
		}
		s.fails("/v2/commentannotations/comments/get", map[string]any{"organizationId": org, "documentId": "old", "annotationId": "ann-old"}, "NOT_FOUND", 404)
		s.fails("/v2/crdt/update", map[string]any{"organizationId": org, "documentId": "old", "editorId": "e1", "type": "text", "data": "x"}, "NOT_FOUND", 404)
		expectOK(t, s.call("/v2/crdt/update", map[string]any{"organizationId": org, "documentId": "new", "editorId": "e1", "type": "text", "data": "edited after the move"}))
		// Annotation numbers of the document go on from where they were.
		s.e3AddAnnotations(s.ws, org, "new", e3AnnotationIn("after-move", "", "ann", "later"))
		first, _ := s.e3Annotation(s.ws, org, "new", "ann-old")["annotationNumber"].(float64)
		next, _ := s.e3Annotation(s.ws, org, "new", "after-move")["annotationNumber"].(float64)
		if first != 1 || next <= first {
			t.Fatalf("annotation numbers after the move: %v then %v, want 1 then a higher one", first, next)
		}
		// users/data/get points at the new document.
		data := s.ok("/v2/users/data/get", map[string]any{"organizationId": org, "userId": "ann"}).DataMap()
		var docs []string
		for _, v := range data["comments"].([]any) {
			if c := v.(map[string]any); c["annotationId"] == "ann-old" {
				docs = append(docs, "comment in "+c["documentId"].(string))
			}
		}
		for _, v := range data["notifications"].([]any) {
			if n := v.(map[string]any); n["id"] == "n-old" {
				docs = append(docs, "notification in "+n["metadata"].(map[string]any)["documentId"].(string))
			}
		}
		if want := []string{"comment in new", "comment in new", "notification in new"}; !slices.Equal(docs, want) {
			t.Fatalf("users/data/get of ann after the migration: %v, want %v", docs, want)
		}
		// The migration is the caller's organization's only.
		s.fails("/v2/organizations/documents/migrate/status", map[string]any{"organizationId": "other", "migrationId": id}, "NOT_FOUND", 404)
		// Finished: its documents are free again; moving onto a document with data is still refused.
		expectStatus(t, s.call("/v2/organizations/documents/migrate", map[string]any{"organizationId": org, "documentId": "new", "newDocumentId": "keep"}), "ALREADY_EXISTS", 409)
	})
}

// TestDocumentMigrationFailsAndResumes makes the last step (identity) of a
// migration fail: the target document record is created in identity right
// after the migration starts, so content, notify and activity have moved
// their data when identity refuses to merge two document records. The
// migration ends failed with a reason; once the conflicting record is gone,
// starting the same migration again finishes it.
//
// The conflict is a race with the migration worker (the start checks the
// target first, so the record can only appear after it). A lost race is
// retried with fresh documents, and the test is skipped when every attempt
// loses.
func TestDocumentMigrationFailsAndResumes(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	const org = "acme"
	emptyView := s.e3DocumentView(s.ws, org, "never-used")
	for attempt := 1; attempt <= 3; attempt++ {
		src, dst := fmt.Sprintf("src%d", attempt), fmt.Sprintf("dst%d", attempt)
		s.e3SeedDocument(s.ws, org, src)
		srcView := s.e3DocumentView(s.ws, org, src)
		id := s.e3StartMigration(s.ws, org, src, dst)
		r := s.ok("/v2/organizations/documents/add", map[string]any{"organizationId": org, "documents": []any{map[string]any{"documentId": dst, "documentName": "squatter"}}})
		if it := item(t, r, dst); it["success"] != true {
			end := s.e3MigrationEnd(s.ws, org, id)
			t.Logf("attempt %d: the migration renamed the document first (%v); retrying", attempt, end["status"])
			continue
		}
		end := s.e3MigrationEnd(s.ws, org, id)
		if end["status"] == "completed" {
			t.Fatalf("migration %s completed although identity holds both %s and %s", id, src, dst)
		}
		reason, _ := end["error"].(string)
		if !strings.Contains(reason, "identity") || !strings.Contains(reason, "FAILED_PRECONDITION") {
			t.Fatalf("failed migration's reason %q does not name the identity step and its status", reason)
		}
		// The steps before identity moved; identity kept the source's record.
		moved := s.e3DocumentView(s.ws, org, dst)
		for _, part := range []string{"crdt: \"e1\" \"text of " + src + "\"", "notifications: \"n-" + src, "activities: \"act1-" + src, "document record: true"} {
			if !strings.Contains(moved, part) {
				t.Fatalf("after the failure, %s lacks %q:\n%s", dst, part, moved)
			}
		}
		if !s.e3DocumentExists(s.ws, org, src) {
			t.Fatalf("identity renamed %s although its step failed", src)
		}

		// Resume: remove the squatting record and start the same migration again.
		expectItems(t, s.ok("/v2/organizations/documents/delete", map[string]any{"organizationId": org, "documentIds": []string{dst}}), map[string]bool{dst: true})
		again := s.e3StartMigration(s.ws, org, src, dst)
		if again == id {
			t.Fatalf("restart reused migration id %s", id)
		}
		if end := s.e3MigrationEnd(s.ws, org, again); end["status"] != "completed" {
			t.Fatalf("resumed migration ended %v", end)
		}
		want := strings.ReplaceAll(srcView, `"`+src+`"`, `"`+dst+`"`)
		if got := s.e3DocumentView(s.ws, org, dst); got != want {
			t.Fatalf("after resuming, under %s:\n got %s\nwant %s", dst, got, want)
		}
		if got := s.e3DocumentView(s.ws, org, src); got != emptyView {
			t.Fatalf("after resuming, left under %s:\n%s\nwant as empty as\n%s", src, got, emptyView)
		}
		// The first migration stays failed.
		if st := s.ok("/v2/organizations/documents/migrate/status", map[string]any{"organizationId": org, "migrationId": id}).DataMap(); st["status"] != "failed" {
			t.Fatalf("first migration now %v", st)
		}
		return
	}
	t.Skip("the migration finished before the conflicting document record could be created, three times: no failing step to observe")
}

// TestAnnotationNumbersStayUniqueAcrossOrganizations: two organizations of
// one workspace may use the same document id. Migrating one organization's
// document must leave the other's annotation numbering alone: its next
// annotation must not repeat a number its document already has.
func TestAnnotationNumbersStayUniqueAcrossOrganizations(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	s.e3AddAnnotations(s.ws, "org-a", "shared", e3AnnotationIn("a1", "", "ann", "in a"))
	s.e3AddAnnotations(s.ws, "org-b", "shared", e3AnnotationIn("b1", "", "ann", "in b"))
	id := s.e3StartMigration(s.ws, "org-a", "shared", "moved")
	if end := s.e3MigrationEnd(s.ws, "org-a", id); end["status"] != "completed" {
		t.Fatalf("migration ended %v", end)
	}
	s.e3AddAnnotations(s.ws, "org-b", "shared", e3AnnotationIn("b2", "", "ann", "in b, later"))
	b1, _ := s.e3Annotation(s.ws, "org-b", "shared", "b1")["annotationNumber"].(float64)
	b2, _ := s.e3Annotation(s.ws, "org-b", "shared", "b2")["annotationNumber"].(float64)
	if b2 <= b1 {
		t.Fatalf("org-b/shared numbers its annotations %v then %v after org-a/shared moved: "+
			"the annotation counter is keyed by workspace and document id only (svc-content annotations/ids.go counterID), "+
			"so the migration took org-b's counter along", b1, b2)
	}
}
