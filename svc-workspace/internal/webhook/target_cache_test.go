package webhook

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// cacheHarness drives a targetCache with a fake clock and counted fills;
// each fill returns a value naming its workspace and fill number.
type cacheHarness struct {
	mu    sync.Mutex
	clock time.Time
	c     *targetCache
	fills map[string]int
}

func newCacheHarness(ttl time.Duration) *cacheHarness {
	h := &cacheHarness{clock: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC), fills: map[string]int{}}
	h.c = newTargetCache(ttl, func() time.Time { h.mu.Lock(); defer h.mu.Unlock(); return h.clock })
	return h
}

func (h *cacheHarness) advance(d time.Duration) { h.mu.Lock(); h.clock = h.clock.Add(d); h.mu.Unlock() }

// get returns which fill of ws answered.
func (h *cacheHarness) get(t *testing.T, ws string) int {
	t.Helper()
	w, err := h.c.get(context.Background(), ws, func(context.Context) (workspaceTargets, error) {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.fills[ws]++
		return workspaceTargets{cfg: Config{PublicKey: ws}, targets: make([]DeliveryTarget, h.fills[ws])}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if w.cfg.PublicKey != ws {
		t.Fatalf("asked for %s, got the entry of %s", ws, w.cfg.PublicKey)
	}
	return len(w.targets)
}

func TestTargetCacheExpires(t *testing.T) {
	h := newCacheHarness(2 * time.Second)
	if n := h.get(t, "ws_1"); n != 1 {
		t.Fatalf("first get: fill %d", n)
	}
	h.advance(1999 * time.Millisecond)
	if n := h.get(t, "ws_1"); n != 1 {
		t.Fatalf("within the TTL: fill %d, want the cached 1", n)
	}
	h.advance(time.Millisecond)
	if n := h.get(t, "ws_1"); n != 2 {
		t.Fatalf("at the TTL: fill %d, want a new read", n)
	}
}

func TestTargetCacheInvalidateIsPerWorkspace(t *testing.T) {
	h := newCacheHarness(time.Minute)
	h.get(t, "ws_1")
	h.get(t, "ws_2")
	if n := h.get(t, "ws_2"); n != 1 {
		t.Fatalf("ws_2 read again: fill %d", n)
	}
	h.c.invalidate("ws_1")
	if n := h.get(t, "ws_1"); n != 2 {
		t.Fatalf("ws_1 after invalidate: fill %d, want a new read", n)
	}
	if n := h.get(t, "ws_2"); n != 1 {
		t.Fatalf("ws_2 after ws_1's invalidate: fill %d, want still the cached 1", n)
	}
}

func TestTargetCacheDoesNotKeepErrors(t *testing.T) {
	h := newCacheHarness(time.Minute)
	boom := errors.New("store down")
	calls := 0
	fill := func(context.Context) (workspaceTargets, error) {
		calls++
		if calls == 1 {
			return workspaceTargets{}, boom
		}
		return workspaceTargets{cfg: Config{IsEnabled: true}}, nil
	}
	if _, err := h.c.get(context.Background(), "ws_1", fill); !errors.Is(err, boom) {
		t.Fatalf("first get: %v, want the fill's error", err)
	}
	if w, err := h.c.get(context.Background(), "ws_1", fill); err != nil || !w.cfg.IsEnabled || calls != 2 {
		t.Fatalf("second get: %+v %v after %d fills, want a new read", w, err, calls)
	}
}

func TestTargetCacheValidUntilShortensTheTTL(t *testing.T) {
	h := newCacheHarness(time.Minute)
	fills := 0
	fill := func(context.Context) (workspaceTargets, error) {
		fills++
		return workspaceTargets{validUntil: h.c.now().Add(time.Second)}, nil
	}
	for range 2 {
		if _, err := h.c.get(context.Background(), "ws_1", fill); err != nil {
			t.Fatal(err)
		}
	}
	h.advance(time.Second)
	if _, err := h.c.get(context.Background(), "ws_1", fill); err != nil || fills != 2 {
		t.Fatalf("%d fills, want a new read once a cached secret has expired", fills)
	}
}

func TestTargetCacheNegativeTTLAlwaysReads(t *testing.T) {
	h := newCacheHarness(-1)
	h.get(t, "ws_1")
	if n := h.get(t, "ws_1"); n != 2 {
		t.Fatalf("fill %d, want every get to read", n)
	}
}

// TestTargetCacheSharesAFill: misses that arrive while a fill runs wait for
// it instead of reading the store themselves.
func TestTargetCacheSharesAFill(t *testing.T) {
	h := newCacheHarness(time.Minute)
	var fills atomic.Int32
	started, release := make(chan struct{}), make(chan struct{})
	fill := func(context.Context) (workspaceTargets, error) {
		if fills.Add(1) == 1 {
			close(started)
		}
		<-release
		return workspaceTargets{cfg: Config{IsEnabled: true}}, nil
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			w, err := h.c.get(context.Background(), "ws_1", fill)
			if err == nil && !w.cfg.IsEnabled {
				err = errors.New("got an empty entry")
			}
			errs <- err
		})
	}
	<-started
	time.Sleep(20 * time.Millisecond) // let the others reach the wait
	close(release)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := fills.Load(); n != 1 {
		t.Fatalf("%d fills for 8 concurrent misses, want 1", n)
	}
}

// TestTargetCacheDropsAFillOverlappingAnInvalidate: a fill that may have
// read the store before a change was written must not be kept after the
// change's invalidate.
func TestTargetCacheDropsAFillOverlappingAnInvalidate(t *testing.T) {
	h := newCacheHarness(time.Minute)
	reading, release := make(chan struct{}), make(chan struct{})
	go func() {
		<-reading
		h.c.invalidate("ws_1") // the change is written while the fill reads
		close(release)
	}()
	stale := func(context.Context) (workspaceTargets, error) {
		close(reading)
		<-release
		return workspaceTargets{cfg: Config{PublicKey: "stale"}}, nil
	}
	if _, err := h.c.get(context.Background(), "ws_1", stale); err != nil {
		t.Fatal(err)
	}
	fresh := func(context.Context) (workspaceTargets, error) {
		return workspaceTargets{cfg: Config{PublicKey: "fresh"}}, nil
	}
	if w, _ := h.c.get(context.Background(), "ws_1", fresh); w.cfg.PublicKey != "fresh" {
		t.Fatalf("after the invalidate: %q, want a new read", w.cfg.PublicKey)
	}
}

func TestTargetCacheWaiterHonoursItsContext(t *testing.T) {
	h := newCacheHarness(time.Minute)
	started, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	go h.c.get(context.Background(), "ws_1", func(context.Context) (workspaceTargets, error) {
		close(started)
		<-release
		return workspaceTargets{}, nil
	})
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err := h.c.get(ctx, "ws_1", func(context.Context) (workspaceTargets, error) {
		t.Error("a second fill ran while the first was in flight")
		return workspaceTargets{}, nil
	})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("waiting get: %v, want its deadline", err)
	}
}
