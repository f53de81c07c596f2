package migration

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"
)

// A worker dies in the middle of a step whose data had moved but whose
// reply never came back. Another worker (another replica, or the restarted
// process) waits for the lease to run out, resumes at the interrupted step
// and completes; no step moves data twice and finished steps are not
// called again.
func TestMigrationKilledAndResumed(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.activity.blockFirst = true
	svcA := h.service()
	id := h.start(svcA)

	// A short lease for A, so the test need not wait long for it to expire.
	optsA := fastOptions()
	optsA.Lease = 500 * time.Millisecond
	crash := runWorker(context.Background(), svcA.NewWorker(optsA))
	select {
	case <-h.activity.blocked:
	case <-time.After(20 * time.Second):
		t.Fatal("worker A never reached the activity step")
	}
	crash() // the process is gone: no more writes from A
	if v, _ := svcA.Status(context.Background(), testWS, testOrg, id); v.Status != InProgress {
		t.Fatalf("after the crash: %s, want in_progress", v.Status)
	}
	latest, _, err := newStore(h.db).latestClaim(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}

	svcB := h.service()
	stopB := runWorker(context.Background(), svcB.NewWorker(fastOptions()))
	defer stopB()
	waitStatus(t, svcB, id, Completed)

	h.tr.check(t)
	for _, f := range h.fakes() {
		calls, moves := f.stats()
		wantCalls := 1
		if f == h.activity {
			wantCalls = 2 // A's lost call and B's re-run
		}
		if calls != wantCalls || moves != 1 {
			t.Errorf("%s: %d calls, %d moves; want %d calls, 1 move", f.name, calls, moves, wantCalls)
		}
		if f.records("doc-a") != 0 || f.records("doc-b") == 0 {
			t.Errorf("%s: data not moved", f.name)
		}
	}
	h.activity.mu.Lock()
	resumedAt := h.activity.callTimes[1]
	h.activity.mu.Unlock()
	if resumedAt.Before(latest.Until) {
		t.Fatalf("B resumed at %v, before A's lease ran out at %v", resumedAt, latest.Until)
	}
	if r := h.record(id); r.Attempts != 0 || r.Done["content"] != 5 || r.Done["notify"] != 2 {
		t.Fatalf("record after resume: attempts %d, done %v", r.Attempts, r.Done)
	}
}

// Two replicas start at the same moment with the same pending migrations:
// each step of each migration runs once, never two at a time.
func TestRacingWorkers(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	const n = 3
	for _, f := range h.fakes() {
		f.delay = 30 * time.Millisecond // keep calls in flight to expose overlaps
		for i := range n {
			f.data[fmt.Sprintf("src-%d", i)] = int64(i + 1)
		}
	}
	svcA, svcB := h.service(), h.service()
	var ids []string
	for i := range n {
		id, err := svcA.Start(context.Background(), StartRequest{
			WorkspaceID: testWS, OrganizationID: testOrg,
			DocumentID: fmt.Sprintf("src-%d", i), NewDocumentID: fmt.Sprintf("dst-%d", i),
		})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}

	opts := fastOptions()
	opts.Lease = 2 * time.Second
	opts.PollInterval = 5 * time.Millisecond
	workers := []*Worker{svcA.NewWorker(opts), svcB.NewWorker(opts), svcB.NewWorker(opts)}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	gate := make(chan struct{})
	for _, w := range workers {
		wg.Go(func() {
			<-gate
			w.Run(ctx)
		})
	}
	close(gate)
	defer func() { cancel(); wg.Wait() }()

	for _, id := range ids {
		waitStatus(t, svcA, id, Completed)
	}
	h.tr.check(t)
	for _, f := range h.fakes() {
		if calls, moves := f.stats(); calls != n || moves != n {
			t.Errorf("%s: %d calls, %d moves; want %d each (one per migration)", f.name, calls, moves, n)
		}
	}
	waitFor(t, func() bool { return len(h.pub.Types()) >= n }, "the outcome events")
	if got := len(h.pub.Types()); got != n {
		t.Errorf("%d outcome events, want %d", got, n)
	}
}

// A step that runs much longer than the lease keeps it through the
// heartbeat: a second worker polling all along never takes over.
func TestLongStepKeepsTheLease(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	opts := fastOptions()
	opts.Lease = time.Second
	h.activity.delay = 3 * opts.Lease
	svcA, svcB := h.service(), h.service()
	id := h.start(svcA)

	stopA := runWorker(context.Background(), svcA.NewWorker(opts))
	defer stopA()
	waitFor(t, func() bool { c, _ := h.activity.stats(); return c == 1 }, "the activity step")
	stopB := runWorker(context.Background(), svcB.NewWorker(opts))
	defer stopB()

	waitStatus(t, svcA, id, Completed)
	h.tr.check(t)
	if calls, _ := h.activity.stats(); calls != 1 {
		t.Fatalf("activity called %d times: the lease was taken over during the step", calls)
	}
}

// The claim chain gives each generation to exactly one worker, even when
// many try at once.
func TestClaimIsExclusive(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	svc := h.service()
	id := h.start(svc)

	var mu sync.Mutex
	won := 0
	var wg sync.WaitGroup
	for range 8 {
		w := svc.NewWorker(WorkerOptions{Lease: time.Minute})
		wg.Go(func() {
			if _, ok := w.claim(context.Background(), id); ok {
				mu.Lock()
				won++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if won != 1 {
		t.Fatalf("%d workers claimed the migration, want 1", won)
	}
	// A live lease cannot be claimed; the holder can renew it.
	late := svc.NewWorker(WorkerOptions{Lease: time.Minute})
	if _, ok := late.claim(context.Background(), id); ok {
		t.Fatal("a live lease was claimed")
	}
}

func TestRenewAfterExpiryFails(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	svc := h.service()
	id := h.start(svc)
	w := svc.NewWorker(WorkerOptions{Lease: time.Minute})
	l, ok := w.claim(context.Background(), id)
	if !ok {
		t.Fatal("claim failed")
	}
	if err := w.renew(context.Background(), l); err != nil {
		t.Fatalf("renew of a live lease: %v", err)
	}
	other := svc.NewWorker(WorkerOptions{Lease: time.Minute})
	l.until = time.Now().Add(-time.Second) // as if the process had stalled
	if err := w.renew(context.Background(), l); err != errLeaseLost {
		t.Fatalf("renew after expiry: %v, want errLeaseLost", err)
	}
	// Someone else winning the next generation also ends the holder's run.
	l.until = time.Now().Add(time.Minute)
	if _, err := newStore(h.db).insertClaim(context.Background(), newClaim(id, l.gen+1, other.id, l.until, time.Now())); err != nil {
		t.Fatal(err)
	}
	if err := w.renew(context.Background(), l); err != errLeaseLost {
		t.Fatalf("renew after a takeover: %v, want errLeaseLost", err)
	}
}
