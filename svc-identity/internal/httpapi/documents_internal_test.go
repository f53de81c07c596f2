package httpapi_test

import (
	"maps"
	"slices"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/docmigrate"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/svc-identity/internal/store"
)

const (
	migratePath = docmigrate.MigratePath
	hasDataPath = docmigrate.HasDataPath
)

// contentPrincipal is svc-content, the orchestrator of migrations.
var contentPrincipal = internalauth.Service("content")

func (e *env) migrate(ws, from, to, migrationID string) int {
	e.t.Helper()
	r := e.callAs(contentPrincipal, migratePath, map[string]any{
		"workspaceId": ws, "organizationId": "o1", "documentId": from, "newDocumentId": to, "migrationId": migrationID,
	})
	if r.code != 200 {
		e.t.Fatalf("migrate %s → %s: %d %s", from, to, r.code, r.raw)
	}
	return int(r.dataMap()["moved"].(float64))
}

func (e *env) hasData(ws, docID string) bool {
	e.t.Helper()
	r := e.callAs(contentPrincipal, hasDataPath, map[string]any{"workspaceId": ws, "organizationId": "o1", "documentId": docID})
	has, ok := r.dataMap()["hasData"].(bool)
	if r.code != 200 || !ok {
		e.t.Fatalf("has-data %s: %d %s", docID, r.code, r.raw)
	}
	return has
}

// documentUsers lists the users with a membership of the document.
func (e *env) documentUsers(ws, docID string) []string {
	e.t.Helper()
	return userIDs(e.t, e.ok(ws, "/v2/users/get", map[string]any{"organizationId": "o1", "documentId": docID}))
}

func TestMigrateDocumentMovesRecordAndMembershipsOnce(t *testing.T) {
	e := newEnv(t)
	e.addUsers("ws1", map[string]any{"organizationId": "o1", "documentId": "d1"}, "u1", "u2")
	e.addUsers("ws1", map[string]any{"organizationId": "o1", "documentId": "keep"}, "u1")
	e.addUsers("ws2", map[string]any{"organizationId": "o1", "documentId": "d1"}, "u9")

	if !e.hasData("ws1", "d1") || e.hasData("ws1", "d2") {
		t.Fatal("has-data before the migration is wrong")
	}
	if moved := e.migrate("ws1", "d1", "d2", "m1"); moved != 3 {
		t.Fatalf("moved = %d, want 3 (two memberships and the record)", moved)
	}
	if e.hasData("ws1", "d1") || !e.hasData("ws1", "d2") {
		t.Fatal("has-data after the migration is wrong")
	}
	if users := e.documentUsers("ws1", "d2"); !slices.Equal(users, []string{"u1", "u2"}) {
		t.Fatalf("users of d2 = %v", users)
	}
	if moved := e.migrate("ws1", "d1", "d2", "m1"); moved != 0 {
		t.Fatalf("second run moved %d, want 0", moved)
	}
	// Other documents and other workspaces are untouched.
	if users := e.documentUsers("ws1", "keep"); !slices.Equal(users, []string{"u1"}) {
		t.Fatalf("users of keep = %v", users)
	}
	if !e.hasData("ws2", "d1") || e.hasData("ws2", "d2") {
		t.Fatal("the migration reached another workspace")
	}
}

func TestMigrateDocumentResumesAnInterruptedRun(t *testing.T) {
	e := newEnv(t)
	e.addUsers("ws1", map[string]any{"organizationId": "o1", "documentId": "d3"}, "u1", "u2", "u3")
	// An interrupted run moved one membership and stopped.
	res, err := e.db.Collection(store.MembershipsCollection).UpdateOne(t.Context(),
		bson.M{"workspaceId": "ws1", "resourceType": "document", "resourceId": "d3", "userId": "u2"},
		bson.M{"$set": bson.M{"resourceId": "d4"}})
	if err != nil || res.ModifiedCount != 1 {
		t.Fatalf("simulating a half-run: %v %+v", err, res)
	}
	// Meanwhile u3 was granted the new id directly: that grant is kept.
	if _, err := e.db.Collection(store.MembershipsCollection).InsertOne(t.Context(), bson.M{
		"workspaceId": "ws1", "organizationId": "o1", "resourceType": "document", "resourceId": "d4",
		"userId": "u3", "accessRole": "viewer", "createdAt": int64(1),
	}); err != nil {
		t.Fatal(err)
	}
	if moved := e.migrate("ws1", "d3", "d4", "m2"); moved != 3 {
		t.Fatalf("resumed run moved %d, want 3 (the two memberships left and the record)", moved)
	}
	if e.hasData("ws1", "d3") {
		t.Fatal("something of d3 was left behind")
	}
	n, err := e.db.Collection(store.MembershipsCollection).CountDocuments(t.Context(),
		bson.M{"workspaceId": "ws1", "resourceId": "d4", "userId": "u3", "accessRole": "viewer"})
	if err != nil || n != 1 {
		t.Fatalf("u3's own grant of d4: %d, %v", n, err)
	}
	if users := e.documentUsers("ws1", "d4"); !slices.Equal(users, []string{"u1", "u2", "u3"}) {
		t.Fatalf("users of d4 = %v", users)
	}
	if moved := e.migrate("ws1", "d3", "d4", "m2"); moved != 0 {
		t.Fatalf("run after completion moved %d", moved)
	}
}

func TestMigrateDocumentRefusals(t *testing.T) {
	e := newEnv(t)
	e.addUsers("ws1", map[string]any{"organizationId": "o1", "documentId": "d5"}, "u1")
	e.addUsers("ws1", map[string]any{"organizationId": "o1", "documentId": "d6"}, "u2")
	body := map[string]any{"workspaceId": "ws1", "organizationId": "o1", "documentId": "d5", "newDocumentId": "d6", "migrationId": "m3"}

	before := e.records()
	if r := e.callAs(contentPrincipal, migratePath, body); r.status() != string(api.FailedPrecondition) {
		t.Fatalf("migrating onto an existing document: %d %s", r.code, r.raw)
	}
	if r := e.callAs(internalauth.Workspace("ws1"), migratePath, body); r.status() != string(api.PermissionDenied) {
		t.Fatalf("a workspace called an internal route: %d %s", r.code, r.raw)
	}
	for _, missing := range []string{"workspaceId", "newDocumentId", "migrationId"} {
		partial := map[string]any{}
		for k, v := range body {
			if k != missing {
				partial[k] = v
			}
		}
		if r := e.callAs(contentPrincipal, migratePath, partial); r.status() != string(api.InvalidArgument) {
			t.Fatalf("without %s: %d %s", missing, r.code, r.raw)
		}
	}
	same := map[string]any{"workspaceId": "ws1", "organizationId": "o1", "documentId": "d5", "newDocumentId": "d5", "migrationId": "m3"}
	if r := e.callAs(contentPrincipal, migratePath, same); r.status() != string(api.InvalidArgument) {
		t.Fatalf("migrating onto itself: %d %s", r.code, r.raw)
	}
	if r := e.callAs(internalauth.Workspace("ws1"), hasDataPath, body); r.status() != string(api.PermissionDenied) {
		t.Fatalf("a workspace called has-data: %d %s", r.code, r.raw)
	}
	if after := e.records(); !maps.Equal(before, after) {
		t.Fatalf("a refused migration wrote: %v → %v", before, after)
	}
	if users := e.documentUsers("ws1", "d5"); !slices.Equal(users, []string{"u1"}) {
		t.Fatalf("users of d5 = %v", users)
	}
}

func TestHasDataSeesMembershipsWithoutARecord(t *testing.T) {
	e := newEnv(t)
	_, err := e.db.Collection(store.MembershipsCollection).InsertOne(t.Context(), bson.M{
		"workspaceId": "ws1", "organizationId": "o1", "resourceType": "document", "resourceId": "stray",
		"userId": "u1", "accessRole": "editor", "createdAt": int64(1),
	})
	if err != nil {
		t.Fatal(err)
	}
	if !e.hasData("ws1", "stray") || e.hasData("ws1", "nothing") {
		t.Fatal("has-data must count a membership without a document record")
	}
	// Such leftovers move too, with nothing else to move.
	if moved := e.migrate("ws1", "stray", "new", "m4"); moved != 1 {
		t.Fatalf("moved = %d, want 1", moved)
	}
	if e.hasData("ws1", "stray") || !e.hasData("ws1", "new") {
		t.Fatal("the stray membership did not move")
	}
}
