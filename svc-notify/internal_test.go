package svcnotify_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/opencollab/backend/pkg/docmigrate"
	svcnotify "github.com/opencollab/backend/svc-notify"
)

// userData walks every page of u1's notifications with the given limit.
func (e *env) userData(ws, userID string, limit int) (pages [][]string) {
	e.T.Helper()
	after := ""
	for range 20 {
		var res struct {
			Items []record `json:"items"`
			Next  *string  `json:"next"`
		}
		e.OK(identity, svcnotify.UserDataPath, svcnotify.UserDataRequest{
			WorkspaceID: ws, OrganizationID: "o1", UserID: userID, After: after, Limit: &limit,
		}, &res)
		if res.Items == nil {
			e.T.Fatal("items is not an array")
		}
		pages = append(pages, ids(res.Items))
		if res.Next == nil {
			return pages
		}
		if *res.Next == "" {
			e.T.Fatal("next is an empty string instead of null")
		}
		after = *res.Next
	}
	e.T.Fatal("paging does not end")
	return nil
}

func TestUserDataPages(t *testing.T) {
	e := newEnv(t, svcnotify.Config{})
	var want []string
	for i := 1; i <= 8; i++ {
		id := fmt.Sprintf("n%02d", i)
		switch i % 4 {
		case 0: // u1 acted
			e.add(ws1, note(id, set("actionUser", user("u1")), only("u2")))
		case 1: // u1 is a recipient
			e.add(ws1, note(id, only("u1")))
		case 2: // u1 is the recipientUser of a notification to everyone
			e.add(ws1, note(id, recipient("u1")))
		case 3: // to everyone: not u1's own data
			e.add(ws1, note(id))
			continue
		}
		want = append([]string{id}, want...) // newest first
	}
	e.add(ws1, note("other-org", only("u1"), set("organizationId", "o2")))

	pages := e.userData("ws1", "u1", 2)
	if len(pages) != 3 {
		t.Fatalf("pages %v, want 3 pages of 2, 2, 2", pages)
	}
	if got := slices.Concat(pages...); !slices.Equal(got, want) {
		t.Fatalf("walked %v, want %v (no gaps, no repeats, newest first)", got, want)
	}
	// A page must not change when newer notifications arrive.
	e.add(ws1, note("n99", only("u1")))
	if got := slices.Concat(e.userData("ws1", "u1", 100)...); !slices.Equal(got, append([]string{"n99"}, want...)) {
		t.Fatalf("one page of 100: %v", got)
	}
	if got := e.userData("ws2", "u1", 10); len(got) != 1 || len(got[0]) != 0 {
		t.Fatalf("ws2 sees %v", got)
	}

	bad := []svcnotify.UserDataRequest{
		{WorkspaceID: "ws1", OrganizationID: "o1", UserID: "u1", After: "garbage"},
		{WorkspaceID: "ws1", OrganizationID: "o1", UserID: "u1", Limit: ptr(101)},
		{WorkspaceID: "ws1", OrganizationID: "o1", UserID: "u1", Limit: ptr(0)},
		{WorkspaceID: "ws1", OrganizationID: "o1"},
		{OrganizationID: "o1", UserID: "u1"},
	}
	for _, b := range bad {
		e.Fails(identity, svcnotify.UserDataPath, b, http.StatusBadRequest, "INVALID_ARGUMENT")
	}
}

func ptr[T any](v T) *T { return &v }

func TestMigrateDocument(t *testing.T) {
	e := newEnv(t, svcnotify.Config{})
	e.add(ws1, note("n1"), note("n2", only("u1")), note("n3", set("documentId", "d2")))
	e.OK(ws1, "/v1/notifications/config/set", body{"organizationId": "o1", "userIds": []string{"u1"}, "documentIds": []string{"d1"}, "config": body{"inbox": "NONE"}}, nil)

	hasData := func(doc string) bool {
		var res docmigrate.HasData
		e.OK(identity, docmigrate.HasDataPath, docmigrate.Document{WorkspaceID: "ws1", OrganizationID: "o1", DocumentID: doc}, &res)
		return res.HasData
	}
	if !hasData("d1") || hasData("d9") {
		t.Fatal("has-data before the migration")
	}
	migrate := func(m docmigrate.Move) int64 {
		var res docmigrate.Moved
		e.OK(identity, docmigrate.MigratePath, m, &res)
		return res.Moved
	}
	m := docmigrate.Move{WorkspaceID: "ws1", OrganizationID: "o1", DocumentID: "d1", NewDocumentID: "d9", MigrationID: "m1"}
	if moved := migrate(m); moved != 3 {
		t.Fatalf("moved %d, want 2 notifications + 1 config", moved)
	}
	// Data added under the old id after completion stays: the migration is done.
	e.add(ws1, note("late"))
	if moved := migrate(m); moved != 0 {
		t.Fatalf("second run moved %d", moved)
	}
	if got := e.getIDs(ws1, "/v1/notifications/get", body{"organizationId": "o1", "documentId": "d9"}); !slices.Equal(got, []string{"n2", "n1"}) {
		t.Fatalf("d9 holds %v", got)
	}
	page, _ := e.get(ws1, "/v1/notifications/get", body{"organizationId": "o1", "notificationIds": []string{"n1"}})
	if page[0].Metadata.DocumentID != "d9" {
		t.Fatalf("metadata after the move: %+v", page[0].Metadata)
	}
	if got := e.configs("/v1/notifications/config/get", "u1", "d9", "d1"); !slices.Equal(got, []string{"NONE/ALL", "ALL/ALL"}) {
		t.Fatalf("configs after the move: %v", got)
	}
	if !hasData("d9") {
		t.Fatal("d9 has no data after the move")
	}
	other := m
	other.NewDocumentID = "d8"
	e.Fails(identity, docmigrate.MigratePath, other, http.StatusBadRequest, "INVALID_ARGUMENT")
	same := m
	same.MigrationID, same.NewDocumentID = "m2", "d1"
	e.Fails(identity, docmigrate.MigratePath, same, http.StatusBadRequest, "INVALID_ARGUMENT")
	e.Fails(identity, docmigrate.MigratePath, docmigrate.Move{WorkspaceID: "ws1", OrganizationID: "o1", DocumentID: "d1"}, http.StatusBadRequest, "INVALID_ARGUMENT")
}
