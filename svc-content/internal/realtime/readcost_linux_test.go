package realtime

import (
	"runtime"
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
	_, sender, relayed := relayRoom(t, peers)
	frames := appendFrames(t, updates+1)
	send := func(i int) {
		if _, err := sender.Write(frames[i]); err != nil {
			t.Fatal(err)
		}
		for relayed.Load() < int64(peers*(i+1)) {
			runtime.Gosched()
		}
		// A steady pace, not a burst: the next update goes once the
		// worker that read this one is parked again.
		waitParkedReadWorker(t)
		time.Sleep(2 * burstGap)
	}
	send(0) // warms a worker up
	// The poller's own count of workers started: the process's count of
	// goroutines created also held what other tests' servers, still
	// closing, started meanwhile (0.82 per update in a package run).
	workers := sharedPoller().workers
	started := workers.started.Load()
	for i := 1; i <= updates; i++ {
		send(i)
	}
	perUpdate := float64(workers.started.Load()-started) / updates
	t.Logf("%.2f read workers started per update received and relayed to %d members", perUpdate, peers)
	// One per update when each readiness started a reader.
	if perUpdate > 0.5 {
		t.Fatalf("%.2f read workers started per update received, want at most 0.5", perUpdate)
	}
}

// waitParkedReadWorker waits until a read worker of the process's poller
// is parked for the next readable socket.
func waitParkedReadWorker(t *testing.T) {
	t.Helper()
	p := sharedPoller()
	if p == nil {
		t.Skip("no epoll poller")
	}
	deadline := time.Now().Add(10 * time.Second)
	for p.workers.idle.Load() < 1 {
		if time.Now().After(deadline) {
			t.Fatal("no read worker parked within 10 s")
		}
		runtime.Gosched()
	}
}

// TestReadingAMessageTakesOneReadCall: a message that arrives alone is
// read with one read system call; a read that did not fill the buffer
// drained the socket, so no second read is made to be told so (EAGAIN).
// Nor is the socket re-armed in the poller (epoll_ctl) per message.
// The sender is alone in its room and nothing is relayed, so the
// process's read calls (/proc/self/io) are the server's.
func TestReadingAMessageTakesOneReadCall(t *testing.T) {
	const updates = 50
	hub := NewHub(Options{Store: discardStore{}, Access: fakeAccess{}})
	srv := serveHub(t, hub)
	sender := bareClient(t, srv.wsBase, "org1/bench/ed1")
	key := DocKey{"ws1", "org1", "bench", "ed1"}
	waitMembers(t, hub, key, 1)
	r := hub.roomByKey(key)
	frames := appendFrames(t, updates+1)
	send := func(i int) {
		if _, err := sender.Write(frames[i]); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for received(r) < uint64(i+1) {
			if time.Now().After(deadline) {
				t.Fatalf("update %d was not received", i)
			}
			runtime.Gosched()
		}
		for readerActive(r) { // until the reader is done with the socket
			runtime.Gosched()
		}
	}
	send(0)
	r0, ctl0 := syscr(), sharedPoller().ctls.Load()
	for i := 1; i <= updates; i++ {
		send(i)
	}
	perUpdate := float64(syscr()-r0) / updates
	ctls := float64(sharedPoller().ctls.Load()-ctl0) / updates
	t.Logf("%.2f read system calls, %.2f epoll_ctl calls per message received", perUpdate, ctls)
	// One per message with one-shot registration (other tests' sockets
	// leaving the poller may add a few).
	if ctls > 0.5 {
		t.Fatalf("%.2f epoll_ctl calls per message received, want 0", ctls)
	}
	// Two before: the message, then EAGAIN.
	if perUpdate > 1.5 {
		t.Fatalf("%.2f read system calls per message received, want 1", perUpdate)
	}
}

// readerActive reports whether a reader works on a socket of r's members.
func readerActive(r *room) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for m := range r.members {
		m.c.rd.mu.Lock()
		active := m.c.rd.active
		m.c.rd.mu.Unlock()
		if active {
			return true
		}
	}
	return false
}

func received(r *room) uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.received
}

// syscr is how many read system calls the process made (Linux).
func syscr() uint64 { return procIO("syscr") }
