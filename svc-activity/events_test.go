package svcactivity_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/opencollab/backend/pkg/events"
	svcactivity "github.com/opencollab/backend/svc-activity"
)

func TestEveryAcceptedChangeIsPublished(t *testing.T) {
	e := newEnv(t, svcactivity.Config{})
	e.add(ws1, "o1", "d1", comment("a1"), comment("a2"))
	e.OK(ws1, "/v2/activities/update", map[string]any{"organizationId": "o1", "activities": []map[string]any{
		{"id": "a1", "actionIcon": "x"}, {"id": "missing", "actionIcon": "x"},
	}}, nil)
	updated := e.onlyRecord("a1")
	e.OK(ws1, "/v2/activities/delete", map[string]any{"organizationId": "o1", "activityIds": []string{"a2", "missing"}}, nil)

	evs := e.published()
	var types []string
	for _, ev := range evs {
		types = append(types, ev.Type)
		if ev.Source != "activity" || ev.WorkspaceID != "ws1" || ev.OrganizationID != "o1" || ev.DocumentID != "d1" ||
			ev.ID == "" || ev.OccurredAt == 0 {
			t.Fatalf("event envelope %+v", ev)
		}
	}
	if want := []string{"activity.add", "activity.add", "activity.update", "activity.delete"}; !slices.Equal(types, want) {
		t.Fatalf("event types %v, want %v", types, want)
	}
	if evs[0].ID == evs[1].ID {
		t.Fatal("two events share an id")
	}
	// Each event carries the record as get returns it.
	assertData(t, evs[2], updated)
	var deleted view
	_ = json.Unmarshal(evs[3].Data, &deleted)
	var added []view
	for _, ev := range evs[:2] {
		var v view
		_ = json.Unmarshal(ev.Data, &v)
		added = append(added, v)
	}
	if deleted.ID != "a2" || added[0].ID != "a1" || added[1].ID != "a2" || added[0].Metadata.OrganizationID != "o1" {
		t.Fatalf("event data: added %+v, deleted %+v", added, deleted)
	}
}

func assertData(t *testing.T, ev events.Event, want view) {
	t.Helper()
	var got view
	if err := json.Unmarshal(ev.Data, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s data\n%+v\nwant the record as get returns it\n%+v", ev.Type, got, want)
	}
}

func TestBulkAddPublishesOneEventPerRecord(t *testing.T) {
	e := newEnv(t, svcactivity.Config{})
	acts := make([]act, 100)
	for i := range acts {
		acts[i] = comment("")
	}
	e.add(ws1, "o1", "d1", acts...)
	page, _ := e.get(ws1, map[string]any{"organizationId": "o1", "order": "asc"})
	evs := e.published()
	if len(page) != 100 || len(evs) != 100 {
		t.Fatalf("%d records, %d events; want 100 of each", len(page), len(evs))
	}
	seen := map[string]bool{}
	for _, ev := range evs {
		var v view
		_ = json.Unmarshal(ev.Data, &v)
		seen[v.ID] = true
	}
	for _, v := range page {
		if !seen[v.ID] {
			t.Fatalf("record %s has no event", v.ID)
		}
	}
}
