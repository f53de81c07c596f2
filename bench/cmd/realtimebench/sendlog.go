package main

import (
	"sync/atomic"
	"time"
)

// runLen is the clock length of every update a client sends ("<digit> "),
// so the k-th update of a phase ends at the phase's first clock + runLen·(k+1).
const runLen = 2

// sendLog keeps when one client sent each update of the steady phase,
// indexed by the clock the update ends at: receivers find a relayed
// update's send time without a shared map or lock. The sender stores and
// receivers load each slot atomically (a relay may land before the sender
// returns from its write).
type sendLog struct {
	base  uint64         // the client's clock when the phase began
	times []atomic.Int64 // time since the run's epoch + 1; 0 = not sent
}

// start prepares the log for at most n updates from clock on; the phase
// must not have begun (nothing reads or records yet).
func (l *sendLog) start(clock uint64, n int) {
	l.base = clock
	l.times = make([]atomic.Int64, n)
}

func (l *sendLog) slot(clock uint64) (int, bool) {
	if clock <= l.base || (clock-l.base)%runLen != 0 {
		return 0, false
	}
	k := (clock-l.base)/runLen - 1
	if k >= uint64(len(l.times)) {
		return 0, false
	}
	return int(k), true
}

// record notes that the update ending at clock was sent at.
func (l *sendLog) record(clock uint64, at time.Duration) {
	if k, ok := l.slot(clock); ok {
		l.times[k].Store(int64(at) + 1)
	}
}

// at is when the update ending at clock was sent, if it was recorded.
func (l *sendLog) at(clock uint64) (time.Duration, bool) {
	k, ok := l.slot(clock)
	if !ok {
		return 0, false
	}
	t := l.times[k].Load()
	return time.Duration(t - 1), t != 0
}
