package svcidentity

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/opencollab/backend/pkg/events"
	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-identity/internal/identity"
)

// A batch of removals is announced as one access_removed event per
// organization and accessEventUsers users (not one per user: each event is
// an outbox document the embedded store commits on its own), in the shape
// svc-content's realtime hub reads; an event of one user also carries
// userId, the shape of before.
func TestAccessEventsAnnounceABatchInFewEvents(t *testing.T) {
	t.Parallel()
	rdb := testenv.Redis(t)
	pub := events.NewPublisher(rdb, testenv.Mongo(t), EventSource, nil)
	var removed []identity.AccessRemoval
	var inO1 []string
	for i := range 300 {
		u := fmt.Sprintf("u%03d", i)
		inO1 = append(inO1, u)
		removed = append(removed, identity.AccessRemoval{UserID: u, OrganizationID: "o1"})
	}
	removed = append(removed, identity.AccessRemoval{UserID: "u1", OrganizationID: "o2"})
	if err := (accessEvents{pub}).AccessRemoved(t.Context(), "ws", removed); err != nil {
		t.Fatal(err)
	}
	entries, err := rdb.XRange(t.Context(), events.Stream(EventSource), "-", "+").Result()
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		org   string
		users []string
	}{{"o1", inO1[:250]}, {"o1", inO1[250:]}, {"o2", []string{"u1"}}}
	if len(entries) != len(want) {
		t.Fatalf("%d stream entries for %d removals in 2 organizations, want %d", len(entries), len(removed), len(want))
	}
	for i, e := range entries {
		var ev struct {
			Type           string `json:"type"`
			WorkspaceID    string `json:"workspaceId"`
			OrganizationID string `json:"organizationId"`
			Data           struct {
				UserID  string   `json:"userId"`
				UserIDs []string `json:"userIds"`
			} `json:"data"`
		}
		if err := json.Unmarshal([]byte(e.Values["event"].(string)), &ev); err != nil {
			t.Fatal(err)
		}
		single := map[bool]string{true: want[i].users[0]}[len(want[i].users) == 1]
		if ev.Type != AccessRemovedEvent || ev.WorkspaceID != "ws" || ev.OrganizationID != want[i].org ||
			!slices.Equal(ev.Data.UserIDs, want[i].users) || ev.Data.UserID != single {
			t.Fatalf("entry %d = %+v, want %s %v", i, ev, want[i].org, want[i].users)
		}
	}
}
