package realtime

import (
	"bytes"
	"runtime"
	"testing"
	"time"
)

// TestBurstOfRelaysStartsNoWriter: the relays of a burst (updates that
// arrive together, as a saturated room's members send their next ones
// once acknowledged) are held and go out to each member in one write by
// the held-message flusher, not by a writer goroutine started per member
// and burst (one start each before, 9 per burst here).
func TestBurstOfRelaysStartsNoWriter(t *testing.T) {
	const peers, updates = 9, 20
	hub, sender, relayed := relayRoom(t, peers)
	key := DocKey{"ws1", "org1", "bench", "ed1"}
	burst := bytes.Join(appendFrames(t, updates), nil)
	starts, writes := writerStarts(hub, key), syscw()
	if _, err := sender.Write(burst); err != nil { // one write: the updates arrive together
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for relayed.Load() < peers*updates {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d relays arrived", relayed.Load(), peers*updates)
		}
		runtime.Gosched()
	}
	started := writerStarts(hub, key) - starts
	// The sender's one write is the test's; the server's are per member.
	perMember := float64(syscw()-writes-1) / peers
	t.Logf("a burst of %d updates: %d writer goroutines started, %.2f writes per member", updates, started, perMember)
	if started != 0 {
		t.Fatalf("a burst of relays started %d writer goroutines, want 0", started)
	}
	// The first relay is written at once, the burst's rest together.
	if perMember > 3 {
		t.Fatalf("%.2f writes per member for a burst of %d relays, want at most 3", perMember, updates)
	}
}
