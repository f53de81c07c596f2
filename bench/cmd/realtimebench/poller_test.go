package main

import (
	"runtime/metrics"
	"testing"
	"time"
)

// goroutinesInSyscalls is how many goroutines are in a system call now.
func goroutinesInSyscalls(t *testing.T) uint64 {
	s := []metrics.Sample{{Name: "/sched/goroutines/not-in-go:goroutines"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		t.Fatalf("%s not supported", s[0].Name)
	}
	return s[0].Value.Uint64()
}

// TestPollerLoopsWaitOutsideSystemCalls: idle loops wait parked in the
// runtime's poller, not in a blocking epoll_wait (a goroutine in a system
// call each, whose P the runtime's monitor polls every 20 µs to take back,
// and threads woken for it: the nanosleep and futex calls that were 10–15 %
// of the clients' CPU at saturation).
func TestPollerLoopsWaitOutsideSystemCalls(t *testing.T) {
	before := goroutinesInSyscalls(t)
	p, err := newPoller(4, 2)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond) // the loops reach their wait
	during := goroutinesInSyscalls(t)
	p.close()
	if during > before {
		t.Errorf("%d goroutines in system calls with 2 idle loops, %d before: the loops block in system calls", during, before)
	}
}

// TestPollerCloseEndsParkedLoops: close returns although no socket ever
// woke the loops.
func TestPollerCloseEndsParkedLoops(t *testing.T) {
	p, err := newPoller(4, 2)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Millisecond)
	closed := make(chan struct{})
	go func() { p.close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("close did not end the parked loops")
	}
}
