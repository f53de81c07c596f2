package realtime

import (
	"io"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// TestReadingStartsNoGoroutinePerMessage: a socket that turns readable
// is read by a parked read worker, not by a goroutine started for it
// (one start per message received, and a stack grown again each time on
// the read, apply and relay path). Updates go one at a time, as at the
// README's steady load, so every one is a readiness of its own.
func TestReadingStartsNoGoroutinePerMessage(t *testing.T) {
	const peers, updates = 9, 50
	hub := NewHub(Options{Store: discardStore{}, Access: fakeAccess{}})
	srv := serveHub(t, hub)
	relayed := new(atomic.Int64)
	for range peers {
		go countUpdates(bareClient(t, srv.wsBase, "org1/bench/ed1"), relayed)
	}
	sender := bareClient(t, srv.wsBase, "org1/bench/ed1")
	go func() { _, _ = io.Copy(io.Discard, sender) }()
	waitMembers(t, hub, DocKey{"ws1", "org1", "bench", "ed1"}, peers+1)
	frames := appendFrames(t, updates+1)
	send := func(i int) {
		if _, err := sender.Write(frames[i]); err != nil {
			t.Fatal(err)
		}
		for relayed.Load() < int64(peers*(i+1)) {
			runtime.Gosched()
		}
		time.Sleep(2 * burstGap) // a steady pace, not a burst
	}
	send(0) // warms a worker up
	created := goroutinesCreated()
	for i := 1; i <= updates; i++ {
		send(i)
	}
	perUpdate := float64(goroutinesCreated()-created) / updates
	t.Logf("%.2f goroutines started per update received and relayed to %d members", perUpdate, peers)
	// One per update when each readiness started a reader; what remains
	// is other work of the process (the committer's timers).
	if perUpdate > 0.5 {
		t.Fatalf("%.2f goroutines started per update received, want at most 0.5", perUpdate)
	}
}
