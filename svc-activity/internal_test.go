package svcactivity_test

import (
	"testing"

	"github.com/opencollab/backend/pkg/docmigrate"
	svcactivity "github.com/opencollab/backend/svc-activity"
)

func TestMigrateDocument(t *testing.T) {
	e := newEnv(t, svcactivity.Config{})
	e.add(ws1, "o1", "d1", comment("a1"), comment("a2"))
	e.add(ws1, "o2", "d1", comment("o2-rec"))
	e.add(ws2, "o1", "d1", comment("ws2-rec"))

	move := docmigrate.Move{WorkspaceID: "ws1", OrganizationID: "o1", DocumentID: "d1", NewDocumentID: "d9", MigrationID: "m1"}
	for i, want := range []int64{2, 0} { // a re-run after completion moves nothing
		var got docmigrate.Moved
		e.OK(content, docmigrate.MigratePath, move, &got)
		if got.Moved != want {
			t.Fatalf("run %d moved %d, want %d", i+1, got.Moved, want)
		}
	}
	page, _ := e.get(ws1, map[string]any{"organizationId": "o1", "documentId": "d9"})
	if len(page) != 2 || page[0].Metadata.DocumentID != "d9" {
		t.Fatalf("records of d9: %+v", page)
	}
	// The rest of the protocol (has-data, isolation, bad requests) is
	// docmigratetest's, run in contract_test.go.
}

func TestWorkspacesAreIsolated(t *testing.T) {
	e := newEnv(t, svcactivity.Config{})
	mine := comment("a1")
	mine["actionIcon"] = "ws1-icon"
	e.add(ws1, "o1", "d1", mine, comment("a2"))

	if page, _ := e.get(ws2, map[string]any{"organizationId": "o1"}); len(page) != 0 {
		t.Fatalf("ws2 sees ws1's records: %v", ids(page))
	}
	if page, _ := e.get(ws2, map[string]any{"organizationId": "o1", "activityIds": []string{"a1"}}); len(page) != 0 {
		t.Fatalf("ws2 reads ws1's record by id: %v", ids(page))
	}
	var upd, del map[string]itemResult
	e.OK(ws2, "/v2/activities/update", map[string]any{"organizationId": "o1",
		"activities": []map[string]any{{"id": "a1", "actionIcon": "ws2-icon"}}}, &upd)
	e.OK(ws2, "/v2/activities/delete", map[string]any{"organizationId": "o1", "activityIds": []string{"a1", "a2"}}, &del)
	if upd["a1"].Success || del["a1"].Success || del["a2"].Success {
		t.Fatalf("ws2 changed ws1's records: update %v, delete %v", upd, del)
	}
	e.OK(ws2, "/v2/activities/delete", map[string]any{"organizationId": "o1", "documentId": "d1"}, nil)
	// The same id in ws2 is ws2's own record and leaves ws1's alone.
	e.add(ws2, "o1", "d1", comment("a1"))

	page, _ := e.get(ws1, map[string]any{"organizationId": "o1", "order": "asc"})
	if len(page) != 2 || page[0].ID != "a1" || page[0].ActionIcon != "ws1-icon" {
		t.Fatalf("ws1 after ws2's calls: %+v", page)
	}
	if page, _ := e.get(ws2, map[string]any{"organizationId": "o1"}); len(page) != 1 || page[0].ActionIcon != "" {
		t.Fatalf("ws2's own a1: %+v", page)
	}
}
