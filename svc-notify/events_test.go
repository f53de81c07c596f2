package svcnotify_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	svcnotify "github.com/opencollab/backend/svc-notify"
)

func TestEveryChangeIsPublished(t *testing.T) {
	e := newEnv(t, svcnotify.Config{})
	e.add(ws1, note("n1", only("u1")), note("n2"))
	e.batch(ws1, "/v1/notifications/update", body{"organizationId": "o1", "notifications": []body{
		{"id": "n1", "readByUserIds": []string{"u1"}}, {"id": "missing", "displayBodyMessage": "x"},
	}})
	page, _ := e.get(ws1, "/v1/notifications/get", body{"organizationId": "o1", "notificationIds": []string{"n1"}})
	updated := page[0]
	e.batch(ws1, "/v2/notifications/delete", body{"organizationId": "o1", "notificationIds": []string{"n2", "missing"}})
	// Refused and unmatched requests publish nothing.
	e.Call(ws1, "/v1/notifications/delete", body{"organizationId": "o1"})
	e.batch(ws1, "/v1/notifications/delete", body{"organizationId": "o1", "documentId": "nope"})

	evs := e.published()
	var types []string
	for _, ev := range evs {
		types = append(types, ev.Type)
		if ev.Source != "notify" || ev.WorkspaceID != "ws1" || ev.OrganizationID != "o1" || ev.DocumentID != "d1" ||
			ev.ID == "" || ev.OccurredAt == 0 {
			t.Fatalf("event envelope %+v", ev)
		}
	}
	want := []string{"notification.add", "notification.add", "notification.update", "notification.delete"}
	if !slices.Equal(types, want) {
		t.Fatalf("event types %v, want %v", types, want)
	}
	if evs[0].ID == evs[1].ID {
		t.Fatal("two events share an id")
	}
	// The update event carries the record as get returns it (without a
	// reader's isRead).
	var got record
	if err := json.Unmarshal(evs[2].Data, &got); err != nil {
		t.Fatal(err)
	}
	if got.IsRead != nil {
		t.Fatal("event record carries isRead")
	}
	if !reflect.DeepEqual(got, updated) {
		t.Fatalf("update event data\n%+v\nwant\n%+v", got, updated)
	}
	var deleted record
	_ = json.Unmarshal(evs[3].Data, &deleted)
	if deleted.ID != "n2" || deleted.DisplayBodyMessage != "Body of n2" {
		t.Fatalf("delete event data %+v", deleted)
	}
}
