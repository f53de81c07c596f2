package realtime

import "testing"

// TestHeldRelaysGoWhenTheReadersAreIdle: a burst's held relays go out as
// soon as no read worker has more input, not after holdFor: a timer under
// a millisecond fires up to a millisecond late in an idle process, which
// had put ~1 ms on realtimebench's steady-phase p99.
func TestHeldRelaysGoWhenTheReadersAreIdle(t *testing.T) {
	const peers, updates = 9, 20
	_, sender, relayed := relayRoom(t, peers)
	early := sharedFlusher().early.Load()
	sendBurst(t, sender, relayed, peers, updates)
	if sharedFlusher().early.Load() == early {
		t.Fatal("the burst's held relays waited for the flusher's timer although the readers were idle")
	}
}
