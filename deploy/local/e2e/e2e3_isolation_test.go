package e2e

import (
	"strings"
	"testing"
)

// TestWorkspacesCannotReachEachOthersContent gives two workspaces the same
// organization, document and record ids, and checks on activity, notify,
// content (CRDT, annotations, locations, migrations) and users/data/get
// that the second workspace neither reads nor changes the first one's
// records, while writing its own records under the same ids.
func TestWorkspacesCannotReachEachOthersContent(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	const org, doc = "acme", "d1"
	one, two := s.ws, s.newWorkspace()
	s.e3SeedDocument(one, org, doc)
	// Two of each on another document, for page tokens.
	s.okAs(one, "/v1/notifications/add", e3NotificationIn(org, "d-paged", "paged-1", "ann", "bob"))
	s.okAs(one, "/v1/notifications/add", e3NotificationIn(org, "d-paged", "paged-2", "ann", "bob"))
	s.e3AddAnnotations(one, org, "d-paged", e3AnnotationIn("paged-1", "", "ann", "x"), e3AnnotationIn("paged-2", "", "ann", "y"))
	snapshot := func() string {
		t.Helper()
		var b strings.Builder
		b.WriteString(s.e3DocumentView(one, org, doc))
		for _, u := range []string{"ann", "bob"} {
			b.WriteString(s.e3UserData(one, org, u, nil).raw + "\n")
		}
		b.WriteString(string(s.okAs(one, "/v2/commentannotations/get", map[string]any{"organizationId": org}).Raw) + "\n")
		b.WriteString(string(s.okAs(one, "/v2/crdt/get", map[string]any{"organizationId": org, "documentId": doc}).Raw) + "\n")
		b.WriteString(string(s.okAs(one, "/v2/activities/get", map[string]any{"organizationId": org}).Raw) + "\n")
		b.WriteString(string(s.okAs(one, "/v1/notifications/get", map[string]any{"organizationId": org}).Raw) + "\n")
		return b.String()
	}
	before := snapshot()
	empty := func(t *testing.T, what string, r reply) {
		t.Helper()
		if arr, ok := r.Data().([]any); !ok || len(arr) != 0 {
			t.Fatalf("workspace two reads %s: %s", what, r.Raw)
		}
	}
	scope := map[string]any{"organizationId": org, "documentId": doc}
	in := func(extra map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range scope {
			out[k] = v
		}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}

	t.Run("activity", func(t *testing.T) {
		empty(t, "activities", s.okAs(two, "/v2/activities/get", map[string]any{"organizationId": org}))
		empty(t, "an activity by id", s.okAs(two, "/v2/activities/get", map[string]any{"organizationId": org, "activityIds": []string{"act1-d1"}}))
		expectItems(t, s.okAs(two, "/v2/activities/update", map[string]any{"organizationId": org,
			"activities": []any{map[string]any{"id": "act1-d1", "actionIcon": "hijacked"}}}), map[string]bool{"act1-d1": false})
		expectItems(t, s.okAs(two, "/v2/activities/delete", map[string]any{"organizationId": org, "activityIds": []string{"act1-d1"}}), map[string]bool{"act1-d1": false})
		expectItems(t, s.okAs(two, "/v2/activities/delete", in(nil)), map[string]bool{})
		// The same id in workspace two is a record of its own.
		s.okAs(two, "/v2/activities/add", in(map[string]any{"activities": []any{e3ActivityIn("act1-d1", "custom", "hijack", "mallory")}}))
		if got := s.e3ActivityByID(two, org, "act1-d1"); got["actionType"] != "hijack" {
			t.Fatalf("workspace two's own act1-d1 = %v", got)
		}
		tok, _ := s.okAs(one, "/v2/activities/get", map[string]any{"organizationId": org, "pageSize": 1}).Result["pageToken"].(string)
		if tok == "" {
			t.Fatal("no page token for workspace one")
		}
		s.failsAs(two, "/v2/activities/get", map[string]any{"organizationId": org, "pageSize": 1, "pageToken": tok}, "INVALID_ARGUMENT", 400)
	})

	t.Run("notify", func(t *testing.T) {
		empty(t, "notifications", s.okAs(two, "/v1/notifications/get", map[string]any{"organizationId": org}))
		empty(t, "notifications of bob", s.okAs(two, "/v2/notifications/get", map[string]any{"organizationId": org, "userId": "bob"}))
		expectItems(t, s.okAs(two, "/v1/notifications/update", map[string]any{"organizationId": org,
			"notifications": []any{map[string]any{"id": "n-d1", "displayBodyMessage": "hijacked"}}}), map[string]bool{"n-d1": false})
		expectItems(t, s.okAs(two, "/v2/notifications/update", map[string]any{"organizationId": org,
			"notifications": []any{map[string]any{"id": "n-d1", "readByUserIds": []string{"bob"}}}}), map[string]bool{"n-d1": false})
		expectItems(t, s.okAs(two, "/v1/notifications/delete", map[string]any{"organizationId": org, "notificationIds": []string{"n-d1"}}), map[string]bool{"n-d1": false})
		expectItems(t, s.okAs(two, "/v2/notifications/delete", in(nil)), map[string]bool{})
		paged := map[string]any{"organizationId": org, "documentId": "d-paged", "pageSize": 1}
		tok, _ := s.okAs(one, "/v2/notifications/get", paged).Result["pageToken"].(string)
		if tok == "" {
			t.Fatal("no notifications page token for workspace one")
		}
		s.failsAs(two, "/v2/notifications/get", with(paged, "pageToken", tok), "INVALID_ARGUMENT", 400)
		cfg := objects(t, s.okAs(two, "/v1/notifications/config/get", map[string]any{"organizationId": org, "userId": "bob", "documentIds": []string{doc}}))
		if len(cfg) != 1 || e3JSON(cfg[0]["config"]) != `{"email":"ALL","inbox":"ALL"}` {
			t.Fatalf("workspace two reads bob's configuration of workspace one: %v", cfg)
		}
		s.okAs(two, "/v2/notifications/config/set", map[string]any{"organizationId": org, "userIds": []string{"bob"}, "documentIds": []string{doc}, "config": map[string]any{"email": "NONE", "inbox": "ALL"}})
		s.okAs(two, "/v1/notifications/add", e3NotificationIn(org, doc, "n-d1", "mallory", "bob"))
		if got := s.e3Notification(two, org, "n-d1", ""); got["displayBodyMessage"] != "Body of n-d1" || got["actionUser"].(map[string]any)["userId"] != "mallory" {
			t.Fatalf("workspace two's own n-d1 = %v", got)
		}
	})

	t.Run("crdt", func(t *testing.T) {
		empty(t, "editors", s.okAs(two, "/v2/crdt/get", scope))
		s.failsAs(two, "/v2/crdt/update", in(map[string]any{"editorId": "e1", "type": "text", "data": "hijacked"}), "NOT_FOUND", 404)
		s.okAs(two, "/v2/crdt/add", in(map[string]any{"editorId": "e1", "type": "map", "data": map[string]any{"mine": true}}))
		if got := s.e3Editor(two, org, doc, "e1"); e3JSON(got["data"]) != `{"mine":true}` {
			t.Fatalf("workspace two's own e1 = %v", got)
		}
	})

	t.Run("annotations", func(t *testing.T) {
		empty(t, "annotations", s.okAs(two, "/v2/commentannotations/get", map[string]any{"organizationId": org}))
		if got := e3AnnotationIDs(t, s.okAs(two, "/v2/commentannotations/get", in(map[string]any{"annotationIds": []string{"ann-d1"}}))); len(got) != 1 || got[0] != "<null>" {
			t.Fatalf("workspace two reads ann-d1: %v", got)
		}
		expectItems(t, s.okAs(two, "/v2/commentannotations/update", in(map[string]any{"annotationIds": []string{"ann-d1"},
			"updatedData": map[string]any{"priority": map[string]any{"id": "P0", "name": "Hijacked"}}})), map[string]bool{"ann-d1": false})
		expectItems(t, s.okAs(two, "/v2/commentannotations/update", in(map[string]any{"locationIds": []string{"loc-1"},
			"updatedData": map[string]any{"priority": map[string]any{"id": "P0", "name": "Hijacked"}}})), map[string]bool{})
		expectItems(t, s.okAs(two, "/v2/commentannotations/delete", in(map[string]any{"annotationIds": []string{"ann-d1"}})), map[string]bool{"ann-d1": false})
		expectItems(t, s.okAs(two, "/v2/commentannotations/delete", in(nil)), map[string]bool{})
		paged := map[string]any{"organizationId": org, "documentId": "d-paged", "pageSize": 1}
		tok, _ := s.okAs(one, "/v2/commentannotations/get", paged).Result["nextPageToken"].(string)
		if tok == "" {
			t.Fatal("no annotations page token for workspace one")
		}
		s.failsAs(two, "/v2/commentannotations/get", with(paged, "pageToken", tok), "INVALID_ARGUMENT", 400)
		ann := func(extra map[string]any) map[string]any { return in(with(extra, "annotationId", "ann-d1")) }
		for path, body := range map[string]map[string]any{
			"comments/add":     ann(map[string]any{"commentData": []any{e3CommentIn("mallory", "x")}}),
			"comments/get":     ann(nil),
			"comments/update":  ann(map[string]any{"commentIds": []int{1}, "updatedData": map[string]any{"commentText": "hijacked"}}),
			"comments/delete":  ann(map[string]any{"commentIds": []int{1}}),
			"reactions/add":    ann(map[string]any{"icon": "HEART", "user": e3User("mallory")}),
			"reactions/delete": ann(map[string]any{"icon": "HEART", "userId": "bob"}),
		} {
			s.failsAs(two, "/v2/commentannotations/"+path, body, "NOT_FOUND", 404)
		}
		s.failsAs(two, "/v1/organizations/documents/locations/update", in(map[string]any{"apiKey": two.apiKey, "authToken": two.authToken,
			"migrate": map[string]any{"oldLocation": map[string]any{"id": "loc-1"}, "newLocation": map[string]any{"id": "hijacked"}}, "merge": true}), "NOT_FOUND", 404)
		// The same annotation id in workspace two is an annotation of its own.
		s.e3AddAnnotations(two, org, doc, e3AnnotationIn("ann-d1", "loc-1", "mallory", "mine"))
		if got := e3CommentTexts(s.e3Annotation(two, org, doc, "ann-d1")); len(got) != 1 || got[0] != `1:"mine"` {
			t.Fatalf("workspace two's own ann-d1 = %v", got)
		}
	})

	t.Run("users/data/get", func(t *testing.T) {
		for _, u := range []string{"ann", "bob"} {
			p := s.e3UserData(two, org, u, nil)
			if len(p.comments)+len(p.reactions)+len(p.recordings) != 0 || (u == "ann" && len(p.notifications) != 0) || p.next != nil {
				t.Fatalf("workspace two reads %s's data of workspace one: %s", u, p.raw)
			}
		}
		if p := s.e3UserData(two, org, "mallory", nil); len(p.comments) != 1 || p.comments[0] != "d1/ann-d1/1:mine" {
			t.Fatalf("workspace two's own user data: %s", p.raw)
		}
	})

	t.Run("migration", func(t *testing.T) {
		id := s.e3StartMigration(two, org, doc, "d9")
		if end := s.e3MigrationEnd(two, org, id); end["status"] != "completed" {
			t.Fatalf("workspace two's migration ended %v", end)
		}
		s.failsAs(one, "/v2/organizations/documents/migrate/status", map[string]any{"organizationId": org, "migrationId": id}, "NOT_FOUND", 404)
		if got := s.e3Editor(two, org, "d9", "e1"); e3JSON(got["data"]) != `{"mine":true}` {
			t.Fatalf("workspace two's e1 after its migration = %v", got)
		}
		if s.e3Editor(one, org, "d9", "e1") != nil {
			t.Fatal("workspace two's migration created data in workspace one")
		}
	})

	if after := snapshot(); after != before {
		t.Fatalf("workspace two changed workspace one's records:\n%s\n---\n%s", before, after)
	}
}
