package delivery_test

import (
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-workspace/internal/webhook"
)

// fastReceiver answers 200 at once and notes when each webhook-id arrived.
type fastReceiver struct {
	count   atomic.Int64
	mu      sync.Mutex
	arrived map[string]time.Time
}

func (f *fastReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	now := time.Now()
	f.mu.Lock()
	f.arrived[r.Header.Get("webhook-id")] = now
	f.mu.Unlock()
	f.count.Add(1)
	w.WriteHeader(http.StatusNoContent)
}

func (f *fastReceiver) arrival(id string) (time.Time, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	at, ok := f.arrived[id]
	return at, ok
}

// BenchmarkDelivery measures deliveries per second, stream to receiver,
// of a backlog of b.N events to one fast loopback endpoint.
//
//	go test ./internal/delivery -run '^$' -bench BenchmarkDelivery$ -benchtime 1000x
func BenchmarkDelivery(b *testing.B) {
	db, rdb := testenv.Mongo(b), testenv.Redis(b)
	rcv := &fastReceiver{arrived: map[string]time.Time{}}
	url := newServer(b, rcv)
	targets := newFakeTargets()
	targets.add("ws_1", webhook.Config{}, webhook.Endpoint{ID: "ep_1", URL: url + "/fast"})
	opts := testOptions(b)
	opts.Workers = 16
	start(b, db, rdb, targets, opts)

	publish(b, rdb, "ws_1", records(10)...) // warm up
	waitFor(b, "the warm-up", func() bool { return rcv.count.Load() == 10 })
	data := records(b.N)
	b.ResetTimer()
	began := time.Now()
	for batch := range slices.Chunk(data, 500) {
		publish(b, rdb, "ws_1", batch...)
	}
	waitForLong(b, func() bool { return rcv.count.Load() == int64(10+b.N) })
	elapsed := time.Since(began)
	b.StopTimer()
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "deliveries/s")
}

// BenchmarkDeliveryLatency measures the delay from an event being
// published to its webhook arriving, one event at a time (no backlog),
// and reports the median and the 99th percentile.
//
//	go test ./internal/delivery -run '^$' -bench BenchmarkDeliveryLatency -benchtime 300x
func BenchmarkDeliveryLatency(b *testing.B) {
	db, rdb := testenv.Mongo(b), testenv.Redis(b)
	rcv := &fastReceiver{arrived: map[string]time.Time{}}
	url := newServer(b, rcv)
	targets := newFakeTargets()
	targets.add("ws_1", webhook.Config{}, webhook.Endpoint{ID: "ep_1", URL: url + "/fast"})
	opts := testOptions(b)
	opts.PollInterval = time.Second // new events wake the workers; polling is the fallback
	start(b, db, rdb, targets, opts)
	publish(b, rdb, "ws_1", records(5)...) // warm up
	waitFor(b, "the warm-up", func() bool { return rcv.count.Load() == 5 })

	delays := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		began := time.Now()
		id := publish(b, rdb, "ws_1", activityRecord())[0].ID + ":ep_1"
		var at time.Time
		waitForLong(b, func() bool {
			var ok bool
			at, ok = rcv.arrival(id)
			return ok
		})
		delays = append(delays, at.Sub(began))
	}
	b.StopTimer()
	slices.Sort(delays)
	pct := func(p float64) float64 {
		return float64(delays[min(len(delays)-1, int(p*float64(len(delays))))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}

// waitForLong polls cond every 100µs (little added to a measured delay)
// for at most five minutes: a benchmark backlog on a busy machine takes
// longer than a test's wait.
func waitForLong(b *testing.B, cond func() bool) {
	b.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			b.Fatal("timed out waiting for deliveries")
		}
		time.Sleep(100 * time.Microsecond)
	}
}
