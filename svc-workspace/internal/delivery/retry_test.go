package delivery_test

import (
	"context"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-workspace/internal/delivery"
	"github.com/opencollab/backend/svc-workspace/internal/webhook"
)

// TestRetriesUntilSuccess: a receiver failing the first two attempts gets
// a third, the one success is recorded, and nothing follows it.
func TestRetriesUntilSuccess(t *testing.T) {
	t.Parallel()
	db, rdb := testenv.Mongo(t), testenv.Redis(t)
	rcv := newReceiver(t)
	rcv.setAnswer(func(_ string, n int) int {
		if n < 2 {
			return http.StatusInternalServerError
		}
		return http.StatusOK
	})
	targets := newFakeTargets()
	rcv.verifyWith("/flaky", targets.add("ws_1", webhook.Config{}, webhook.Endpoint{ID: "ep_1", URL: rcv.url("/flaky")}))
	opts := testOptions(t)
	opts.Schedule = []time.Duration{50 * time.Millisecond, 100 * time.Millisecond, 150 * time.Millisecond, 200 * time.Millisecond}
	r := start(t, db, rdb, targets, opts)

	ev := publish(t, rdb, "ws_1", activityRecord())[0]
	id := ev.ID + ":ep_1"
	waitFor(t, "the message to be delivered", func() bool { return messageStatus(t, db, id) == "delivered" })

	attempts := allAttempts(t, r.svc, "ws_1", "ep_1")
	wantStatus := []string{"succeeded", "failed", "failed"} // newest first
	wantCode := []int{200, 500, 500}
	if len(attempts) != 3 {
		t.Fatalf("%d attempts recorded, want 3: %+v", len(attempts), attempts)
	}
	for i, a := range attempts {
		if a.Attempt != 3-i || a.Status != wantStatus[i] || a.StatusCode == nil || *a.StatusCode != wantCode[i] ||
			a.MessageID != id || a.EventType != "activity.add" || a.DurationMs == nil {
			t.Errorf("attempt %d = %+v, want #%d %s %d", i, a, 3-i, wantStatus[i], wantCode[i])
		}
		if i > 0 && !attempts[i-1].Timestamp.After(a.Timestamp) {
			t.Errorf("attempt %d at %v is not after attempt %d at %v", 3-i+1, attempts[i-1].Timestamp, 3-i, a.Timestamp)
		}
	}

	// Wait past the rest of the schedule: no attempt may follow the success.
	time.Sleep(2 * (200 + 150) * time.Millisecond)
	got := rcv.deliveries()
	if len(got) != 3 {
		t.Fatalf("receiver got %d requests, want 3", len(got))
	}
	for _, d := range got {
		if d.Header.Get("webhook-id") != id {
			t.Errorf("webhook-id %q, want %q on every attempt", d.Header.Get("webhook-id"), id)
		}
	}
	if n := len(allAttempts(t, r.svc, "ws_1", "ep_1")); n != 3 {
		t.Errorf("%d attempts recorded after waiting, want 3", n)
	}
}

// TestFailureKinds: a redirect (not followed), a reply slower than the
// timeout and a refused connection are failed attempts; after the last one
// the message fails and message.attempt.exhausted goes to the endpoint
// asking for it.
func TestFailureKinds(t *testing.T) {
	t.Parallel()
	db, rdb := testenv.Mongo(t), testenv.Redis(t)
	rcv := newReceiver(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, rcv.url("/ok"), http.StatusFound)
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	})
	mux.HandleFunc("/", rcv.serve)
	srv := newServer(t, mux)
	closed := closedURL(t)

	targets := newFakeTargets()
	targets.add("ws_1", webhook.Config{}, webhook.Endpoint{ID: "ep_redirect", URL: srv + "/redirect", FilterTypes: []string{"activity.add"}})
	targets.add("ws_1", webhook.Config{}, webhook.Endpoint{ID: "ep_slow", URL: srv + "/slow", FilterTypes: []string{"activity.add"}})
	targets.add("ws_1", webhook.Config{}, webhook.Endpoint{ID: "ep_closed", URL: closed, FilterTypes: []string{"activity.add"}})
	rcv.verifyWith("/reports", targets.add("ws_1", webhook.Config{}, webhook.Endpoint{
		ID: "ep_reports", URL: srv + "/reports", FilterTypes: []string{delivery.ExhaustedEventType},
	}))
	opts := testOptions(t)
	opts.Timeout = 300 * time.Millisecond
	opts.Lease = 15 * time.Second
	opts.Schedule = []time.Duration{20 * time.Millisecond}
	r := start(t, db, rdb, targets, opts)

	ev := publish(t, rdb, "ws_1", activityRecord())[0]
	failing := map[string]string{
		"ep_redirect": "endpoint answered HTTP 302",
		"ep_slow":     "no complete reply within 300ms",
		"ep_closed":   "request failed:",
	}
	for ep := range failing {
		waitFor(t, ep+" to fail", func() bool { return messageStatus(t, db, ev.ID+":"+ep) == "failed" })
	}
	for ep, wantErr := range failing {
		attempts := allAttempts(t, r.svc, "ws_1", ep)
		if len(attempts) != 2 {
			t.Errorf("%s: %d attempts, want 2", ep, len(attempts))
		}
		for _, a := range attempts {
			if a.Status != "failed" || a.Error == nil || !strings.Contains(*a.Error, wantErr) {
				t.Errorf("%s: attempt %+v, want failed with %q", ep, a, wantErr)
			}
		}
	}
	waitFor(t, "three exhaustion reports", func() bool { return len(rcv.succeededIDs()) == 3 })
	var reported []string
	for _, d := range rcv.deliveries() {
		if d.Path == "/ok" {
			t.Error("a redirect was followed")
			continue
		}
		var b struct {
			Event string
			Data  struct {
				MessageID string
				Attempts  int
			}
		}
		mustUnmarshal(t, d.Body, &b)
		if b.Event != delivery.ExhaustedEventType || b.Data.Attempts != 2 {
			t.Errorf("report %s", d.Body)
		}
		reported = append(reported, b.Data.MessageID)
	}
	slices.Sort(reported)
	want := []string{ev.ID + ":ep_closed", ev.ID + ":ep_redirect", ev.ID + ":ep_slow"}
	if !slices.Equal(reported, want) {
		t.Errorf("reports for %v, want %v", reported, want)
	}
}

// TestGoneEndpointsGetNoAttempts: a message whose endpoint was deleted or
// disabled before its retry is cancelled without a request.
func TestGoneEndpointsGetNoAttempts(t *testing.T) {
	t.Parallel()
	db, rdb := testenv.Mongo(t), testenv.Redis(t)
	rcv := newReceiver(t)
	rcv.setAnswer(func(string, int) int { return http.StatusServiceUnavailable })
	targets := newFakeTargets()
	targets.add("ws_1", webhook.Config{}, webhook.Endpoint{ID: "ep_disabled", URL: rcv.url("/disabled")})
	targets.add("ws_1", webhook.Config{}, webhook.Endpoint{ID: "ep_deleted", URL: rcv.url("/deleted")})
	opts := testOptions(t)
	opts.Schedule = []time.Duration{time.Second}
	r := start(t, db, rdb, targets, opts)

	ev := publish(t, rdb, "ws_1", activityRecord())[0]
	waitFor(t, "the first attempts", func() bool {
		return len(allAttempts(t, r.svc, "ws_1", "ep_disabled")) == 1 && len(allAttempts(t, r.svc, "ws_1", "ep_deleted")) == 1
	})
	if err := targets.DisableEndpoint(context.Background(), "ws_1", "ep_disabled", "test"); err != nil {
		t.Fatal(err)
	}
	targets.remove("ws_1", "ep_deleted")
	for _, ep := range []string{"ep_disabled", "ep_deleted"} {
		waitFor(t, ep+" to be cancelled", func() bool { return messageStatus(t, db, ev.ID+":"+ep) == "cancelled" })
	}
	if n := len(rcv.deliveries()); n != 2 {
		t.Errorf("receiver got %d requests, want 2", n)
	}
}

// newServer serves h on loopback and returns its base URL.
func newServer(t testing.TB, h http.Handler) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "http://" + l.Addr().String()
}

// closedURL is a loopback URL nobody listens on.
func closedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return "http://" + addr + "/closed"
}

// TestRateLimitSpacesDeliveries: an endpoint with rateLimit 1 gets its
// backlog one message a second (a lower bound, which slowness cannot
// break), and every message arrives.
func TestRateLimitSpacesDeliveries(t *testing.T) {
	t.Parallel()
	db, rdb := testenv.Mongo(t), testenv.Redis(t)
	rcv := newReceiver(t)
	targets := newFakeTargets()
	limit := 1
	rcv.verifyWith("/r", targets.add("ws_1", webhook.Config{}, webhook.Endpoint{ID: "ep_1", URL: rcv.url("/r"), RateLimit: &limit}))
	start(t, db, rdb, targets, testOptions(t))

	publish(t, rdb, "ws_1", records(3)...)
	waitFor(t, "three deliveries", func() bool { return len(rcv.succeededIDs()) == 3 })
	got := rcv.deliveries()
	if len(got) != 3 {
		t.Fatalf("%d requests, want 3", len(got))
	}
	if gap := got[2].At.Sub(got[0].At); gap < 1500*time.Millisecond {
		t.Errorf("three messages within %v at 1 message/s", gap)
	}
}
