package svcworkspace_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/events"
	"github.com/opencollab/backend/pkg/internalauth"
	svcworkspace "github.com/opencollab/backend/svc-workspace"
)

// TestSwitchChangeReachesThisReplicasDeliveryAtOnce: the operator's
// advancedWebhooks switch is written by the workspace operations, not the
// webhook package; the service must still make this replica's delivery
// forget its cached targets, or events would go out for a whole TTL (a
// minute here) after the switch was turned off.
func TestSwitchChangeReachesThisReplicasDeliveryAtOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcworkspace.Config{
		DataEncryptionKey: testDataKey, WebhookAllowPrivateTargets: true, EventStreams: []string{"events:activity"},
		WebhookTargetCacheTTL: time.Minute,
	})
	c := e.createWorkspace(nil)
	ws := internalauth.Workspace(c.WorkspaceID)
	e.enableHooks(ws)

	var mu sync.Mutex
	got := map[string]bool{} // activity ids delivered
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Data struct {
				ID string `json:"id"`
			} `json:"data"`
		}
		raw, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(raw, &body)
		mu.Lock()
		got[body.Data.ID] = true
		mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	e.createEndpoint(ws, map[string]any{"url": srv.URL + "/hook"})

	pub := events.NewPublisher(e.Redis, nil, "activity", nil)
	send := func(id string) {
		ev, err := events.New("activity.add", "activity", c.WorkspaceID, "org_1", "doc_1", map[string]any{"id": id})
		if err != nil {
			t.Fatal(err)
		}
		if err := pub.Publish(context.Background(), ev); err != nil {
			t.Fatal(err)
		}
	}
	delivered := func(id string) bool { mu.Lock(); defer mu.Unlock(); return got[id] }
	waitFor := func(id string) {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); !delivered(id); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s was not delivered", id)
			}
		}
	}
	setSwitch := func(on bool) {
		e.OK(internalauth.Operator, featuresUpdate, map[string]any{"apiKey": c.APIKey, "features": map[string]any{"advancedWebhooks": on}}, nil)
	}

	// ingested waits until every group of the stream has read and
	// acknowledged all it was given: the event's fate is decided.
	ingested := func() {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			groups, err := e.Redis.XInfoGroups(context.Background(), events.Stream("activity")).Result()
			if err != nil {
				t.Fatal(err)
			}
			done := len(groups) > 0
			for _, g := range groups {
				done = done && g.Lag == 0 && g.Pending == 0
			}
			if done {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the events were not ingested: %+v", groups)
			}
		}
	}

	send("before") // fills the cache with the endpoint
	waitFor("before")
	setSwitch(false)
	send("while-off")
	// Switched on again only once "while-off" was ingested: an event
	// ingested after the switch is back on is delivered, by design.
	ingested()
	setSwitch(true)
	send("after")
	waitFor("after")
	time.Sleep(200 * time.Millisecond)
	if delivered("while-off") {
		t.Fatal("an event published while advanced webhooks were switched off was delivered")
	}
}
