package svcidentity

import (
	"encoding/json"
	"testing"

	"github.com/opencollab/backend/pkg/events"
	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-identity/internal/identity"
)

// A batch of removals is announced as one access_removed event per user
// and organization, in the shape svc-content's realtime hub reads
// (data.userId, workspace and organization ids).
func TestAccessEventsAnnounceEveryRemovalOfABatch(t *testing.T) {
	t.Parallel()
	rdb := testenv.Redis(t)
	pub := events.NewPublisher(rdb, testenv.Mongo(t), EventSource, nil)
	removed := []identity.AccessRemoval{{UserID: "u1", OrganizationID: "o1"}, {UserID: "u2", OrganizationID: "o1"}, {UserID: "u1", OrganizationID: "o2"}}
	if err := (accessEvents{pub}).AccessRemoved(t.Context(), "ws", removed); err != nil {
		t.Fatal(err)
	}
	entries, err := rdb.XRange(t.Context(), events.Stream(EventSource), "-", "+").Result()
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(removed) {
		t.Fatalf("%d stream entries for %d removals", len(entries), len(removed))
	}
	for i, e := range entries {
		var ev struct {
			Type, WorkspaceID, OrganizationID string
			Data                              struct{ UserID string }
		}
		if err := json.Unmarshal([]byte(e.Values["event"].(string)), &ev); err != nil {
			t.Fatal(err)
		}
		want := removed[i]
		if ev.Type != AccessRemovedEvent || ev.WorkspaceID != "ws" || ev.OrganizationID != want.OrganizationID || ev.Data.UserID != want.UserID {
			t.Fatalf("entry %d = %+v, want %+v", i, ev, want)
		}
	}
}
