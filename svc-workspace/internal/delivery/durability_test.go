package delivery_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-workspace/internal/webhook"
)

// TestRestartLosesNothing stops the service with retries pending, one
// attempt claimed by a worker that "crashed" (a sending record whose lease
// ran out) and events still on the stream; a new service delivers every
// message, each exactly once successfully.
func TestRestartLosesNothing(t *testing.T) {
	t.Parallel()
	db, rdb := testenv.Mongo(t), testenv.Redis(t)
	rcv := newReceiver(t)
	var up atomic.Bool
	rcv.setAnswer(func(string, int) int {
		if up.Load() {
			return http.StatusOK
		}
		return http.StatusServiceUnavailable
	})
	targets := newFakeTargets()
	rcv.verifyWith("/r", targets.add("ws_1", webhook.Config{}, webhook.Endpoint{ID: "ep_1", URL: rcv.url("/r")}))
	opts := testOptions(t)
	opts.Schedule = []time.Duration{time.Hour, time.Hour} // retries wait for the second service
	first := start(t, db, rdb, targets, opts)

	const before, during = 20, 5
	var ids []string
	for _, e := range publish(t, rdb, "ws_1", records(before)...) {
		ids = append(ids, e.ID+":ep_1")
	}
	waitFor(t, "a failed first attempt of every message", func() bool {
		seen := map[string]bool{}
		for _, d := range rcv.deliveries() {
			seen[d.Header.Get("webhook-id")] = true
		}
		return len(seen) == before
	})
	first.stop()

	// A worker that died holding attempt n of the first message.
	crashed := ids[0]
	var m struct {
		NextAttempt int `bson:"nextAttempt"`
	}
	if err := db.Collection("webhook_queue").FindOne(context.Background(), bson.M{"_id": crashed}).Decode(&m); err != nil {
		t.Fatal(err)
	}
	past := time.Now().Add(-time.Minute)
	if _, err := db.Collection("webhook_attempts").InsertOne(context.Background(), bson.M{
		"_id": fmt.Sprintf("%s:%d", crashed, m.NextAttempt), "workspaceId": "ws_1", "endpointId": "ep_1",
		"messageId": crashed, "eventType": "activity.add", "attempt": m.NextAttempt, "status": "sending",
		"owner": "crashed", "startedAt": past, "leaseUntil": past,
	}); err != nil {
		t.Fatal(err)
	}
	// Events published while no service runs.
	for _, e := range publish(t, rdb, "ws_1", records(during)...) {
		ids = append(ids, e.ID+":ep_1")
	}

	up.Store(true)
	opts.ConsumerName = "second"
	opts.Now = func() time.Time { return time.Now().Add(2 * time.Hour) } // the retries are due
	second := start(t, db, rdb, targets, opts)
	waitFor(t, "every message delivered", func() bool { return len(rcv.succeededIDs()) == before+during })
	for _, id := range ids {
		waitFor(t, id+" recorded delivered", func() bool { return messageStatus(t, db, id) == "delivered" })
	}
	for id, n := range rcv.succeededIDs() {
		if n != 1 {
			t.Errorf("%s succeeded %d times", id, n)
		}
	}
	var interrupted bool
	for _, a := range allAttempts(t, second.svc, "ws_1", "ep_1") {
		if a.MessageID == crashed && a.Attempt == m.NextAttempt {
			interrupted = a.Status == "failed" && a.Error != nil && strings.Contains(*a.Error, "interrupted")
		}
	}
	if !interrupted {
		t.Error("the crashed attempt is not recorded as interrupted")
	}
}

// TestReplicasDeliverOnce runs two services on one database and stream:
// both look for the same due messages, and each message is still sent
// once.
func TestReplicasDeliverOnce(t *testing.T) {
	t.Parallel()
	db, rdb := testenv.Mongo(t), testenv.Redis(t)
	rcv := newReceiver(t)
	targets := newFakeTargets()
	rcv.verifyWith("/r", targets.add("ws_1", webhook.Config{}, webhook.Endpoint{ID: "ep_1", URL: rcv.url("/r")}))

	const n = 150
	published := publish(t, rdb, "ws_1", records(n)...) // waiting for both replicas
	var replicas []running
	for i := range 2 {
		opts := testOptions(t)
		opts.ConsumerName = fmt.Sprintf("replica-%d", i)
		opts.Workers = 8
		replicas = append(replicas, start(t, db, rdb, targets, opts))
	}
	waitFor(t, "every message delivered", func() bool { return len(rcv.succeededIDs()) == n })
	for _, e := range published {
		id := e.ID + ":ep_1"
		waitFor(t, id+" recorded delivered", func() bool { return messageStatus(t, db, id) == "delivered" })
	}
	for _, r := range replicas {
		r.stop()
	}
	if got := len(rcv.deliveries()); got != n {
		t.Errorf("receiver got %d requests for %d messages", got, n)
	}
	attempts, err := db.Collection("webhook_attempts").CountDocuments(context.Background(), bson.M{"workspaceId": "ws_1"})
	if err != nil {
		t.Fatal(err)
	}
	if attempts != n {
		t.Errorf("%d attempts recorded for %d messages", attempts, n)
	}
}

func records(n int) []any {
	out := make([]any, n)
	for i := range out {
		r := activityRecord()
		r["id"] = fmt.Sprintf("act_%d", i)
		out[i] = r
	}
	return out
}

// TestHangingEndpointLeavesWorkersForOthers: an endpoint that never
// answers holds at most half the workers; another endpoint's messages
// keep flowing meanwhile.
func TestHangingEndpointLeavesWorkersForOthers(t *testing.T) {
	t.Parallel()
	db, rdb := testenv.Mongo(t), testenv.Redis(t)
	release := make(chan struct{})
	var hung atomic.Int64
	hanging := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hung.Add(1)
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	rcv := newReceiver(t)
	targets := newFakeTargets()
	targets.add("ws_1", webhook.Config{}, webhook.Endpoint{ID: "ep_hanging", URL: hanging + "/hang"})
	rcv.verifyWith("/fast", targets.add("ws_1", webhook.Config{}, webhook.Endpoint{ID: "ep_fast", URL: rcv.url("/fast")}))
	opts := testOptions(t)
	opts.Workers = 4
	opts.Timeout = time.Minute // longer than any wait here: only free workers can help
	opts.Lease = 2 * time.Minute
	r := start(t, db, rdb, targets, opts)
	defer r.stop()
	defer close(release) // before stop: lets the hanging requests end

	const n = 10
	publish(t, rdb, "ws_1", records(n)...)
	waitFor(t, "every message at the fast endpoint", func() bool { return len(rcv.succeededIDs()) == n })
	if got := hung.Load(); got > 2 {
		t.Errorf("%d requests hang at once, want at most half of the 4 workers", got)
	}
}
