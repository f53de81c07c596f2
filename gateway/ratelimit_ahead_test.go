package gateway

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
)

// waitLeasedAhead waits for b's lease ahead of window to land.
func waitLeasedAhead(t *testing.T, b *bucket, window int64) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		b.mu.Lock()
		done := b.aheadOf == window && !b.leasing
		b.mu.Unlock()
		if done {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("no lease ahead of window %d", window)
}

// A key used in the second half of a window has the next window's first
// chunk leased before that window begins: the requests at its start make
// no Redis call, and the chunk counts in the next window's counter.
func TestRateLimiterLeasesTheNextWindowAhead(t *testing.T) {
	t.Parallel()
	mr := miniredis.RunT(t)
	clk := newFakeClock()
	l := newTestLimiter(t, mr, 100, clk) // chunk 10
	start := clk.now().Unix()
	if got := allowed(l, "k", 2); got != 2 {
		t.Fatalf("allowed %d of 2", got)
	}
	b := l.bucket("k")
	b.mu.Lock()
	early := b.leasing || b.aheadOf != 0
	b.mu.Unlock()
	if early {
		t.Fatal("leased ahead in the first half of the window")
	}

	clk.advance(600 * time.Millisecond)
	if !l.allow(context.Background(), "k") {
		t.Fatal("refused in the second half")
	}
	waitLeasedAhead(t, b, start+1)
	next := b.keyPrefix + strconv.FormatInt(start+1, 10)
	if v, err := mr.Get(next); err != nil || v != "10" {
		t.Fatalf("next window's counter %q (%v), want 10", v, err)
	}

	clk.advance(400 * time.Millisecond) // the next window begins
	calls := mr.CommandCount()
	if got := allowed(l, "k", 10); got != 10 {
		t.Fatalf("allowed %d of the 10 leased ahead", got)
	}
	if n := mr.CommandCount() - calls; n != 0 {
		t.Fatalf("the window's first 10 requests made %d Redis calls, want none", n)
	}
	if !l.allow(context.Background(), "k") {
		t.Fatal("11th request refused")
	}
	if mr.CommandCount() == calls {
		t.Fatal("the 11th request leased nothing: the count above proves nothing")
	}
}

// Two replicas leasing ahead still share the limit: in the window they
// leased ahead for, both asking get exactly the limit together.
func TestRateLimiterLeaseAheadKeepsTheLimit(t *testing.T) {
	t.Parallel()
	mr := miniredis.RunT(t)
	clk := newFakeClock()
	a, b := newTestLimiter(t, mr, 100, clk), newTestLimiter(t, mr, 100, clk)
	start := clk.now().Unix()
	clk.advance(700 * time.Millisecond)
	for _, l := range []*rateLimiter{a, b} {
		if !l.allow(context.Background(), "k") {
			t.Fatal("first request refused")
		}
		waitLeasedAhead(t, l.bucket("k"), start+1)
	}
	clk.advance(300 * time.Millisecond)
	total := 0
	for range 300 {
		total += allowed(a, "k", 1) + allowed(b, "k", 1)
	}
	if total != 100 {
		t.Fatalf("replicas allowed %d together in the window leased ahead, want 100", total)
	}
}

// A lease ahead that lands after its window began adds to that window's
// quota; one that lands after its window ended is dropped.
func TestRateLimiterLateLeaseAhead(t *testing.T) {
	t.Parallel()
	mr := miniredis.RunT(t)
	clk := newFakeClock()
	l := newTestLimiter(t, mr, 100, clk)
	start := clk.now().Unix()
	b := l.bucket("k")
	b.roll(start + 1)
	b.local = 3
	l.leaseFor(context.Background(), b, start+1)
	if b.local != 13 {
		t.Fatalf("quota %d after a late lease of 10 on 3, want 13", b.local)
	}
	b.roll(start + 3)
	l.leaseFor(context.Background(), b, start+2)
	if b.local != 0 || b.ahead != 0 || b.aheadOf != 0 {
		t.Fatalf("a lease for an ended window was kept: local %d, ahead %d of %d", b.local, b.ahead, b.aheadOf)
	}
	// Nothing granted ahead: the window starts exhausted, without a call.
	b.ahead, b.aheadOf = 0, start+4
	clk.advance(4 * time.Second)
	calls := mr.CommandCount()
	if l.allow(context.Background(), "k") || mr.CommandCount() != calls {
		t.Fatal("a window whose lease ahead got nothing allowed a request or called Redis")
	}
}

// While Redis is known down nothing is leased ahead.
func TestRateLimiterNoLeaseAheadWhileRedisDown(t *testing.T) {
	t.Parallel()
	mr := miniredis.RunT(t)
	clk := newFakeClock()
	l := newTestLimiter(t, mr, 100, clk)
	clk.advance(600 * time.Millisecond)
	l.guard.failed()
	if !l.allow(context.Background(), "k") {
		t.Fatal("refused while Redis is skipped (fails open)")
	}
	b := l.bucket("k")
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.leasing || b.aheadOf != 0 {
		t.Fatal("leased ahead while Redis is known down")
	}
}
