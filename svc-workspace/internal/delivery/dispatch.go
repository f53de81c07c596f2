package delivery

import (
	"context"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"
)

// attemptBudget bounds the store operations of one attempt beyond its
// lease; a stuck store fails the attempt's bookkeeping, which a later
// look repairs.
const attemptBudget = time.Minute

// dispatch feeds due messages to the workers until ctx ends, then waits
// for the deliveries in flight. It looks for due messages when woken by new
// messages, every PollInterval, and — while the last look left some behind
// — as soon as a few workers are free again.
func (s *Service) dispatch(ctx context.Context) {
	workers := s.opts.Workers
	jobs := make(chan messageDoc, workers)
	done := make(chan messageDoc, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for m := range jobs {
				s.deliver(ctx, m)
				done <- m
			}
		})
	}
	var flusher sync.WaitGroup
	flusher.Go(func() { s.dequeueFinished(ctx) })
	defer func() {
		close(jobs)
		wg.Wait()
		flusher.Wait()
		s.flushFinished(context.WithoutCancel(ctx))
	}()

	busy := newInFlight(workers) // at most `workers` entries, so sends never block
	ticker := time.NewTicker(s.opts.PollInterval)
	defer ticker.Stop()
	// more: the last look may have left due messages behind (it filled
	// every free worker, or skipped endpoints at their share). Then the
	// next look waits for a quarter of the workers' worth of deliveries to
	// finish, so a backlog costs one look per few deliveries, and new
	// messages need no look of their own: that one finds them too.
	// The timed look is skipped while finishing deliveries keep looking
	// (flowing); it matters when they do not (all workers of the waiting
	// endpoints hang): then it finds the other endpoints' messages.
	more, flowing := false, false
	freed, wait := 0, 0 // deliveries finished since the last look, and needed for the next
	batch := max(1, workers/4)
	look := func() {
		if free := workers - busy.len(); free > 0 {
			more = s.fill(ctx, jobs, busy, free)
		}
		freed, wait = 0, max(1, min(batch, busy.len()))
	}
	look()
	for {
		select {
		case <-ctx.Done():
			return
		case m := <-done:
			busy.remove(m)
			if freed++; more && freed >= wait {
				look()
				flowing = true
			}
		case <-s.wake:
			if !more {
				look()
			}
		case <-ticker.C:
			if !more || !flowing {
				look()
			}
			flowing = false
		}
	}
}

// fill hands up to free due messages to the workers and reports whether
// there may be more to take once workers are free. Endpoints at their
// share of the workers or out of rate-limit tokens are left out of the
// look, and it reads more than it can take, so that an endpoint reaching
// its share within the batch leaves room for the others.
func (s *Service) fill(ctx context.Context, jobs chan<- messageDoc, busy *inFlight, free int) bool {
	skip := append(busy.ids(), s.finished.list()...)
	full := append(busy.full(), s.limiter.blockedAt(time.Now())...)
	due, err := s.store.dueMessages(ctx, s.now(), skip, full, free*overRead)
	if err != nil {
		if ctx.Err() == nil {
			s.logger.WarnContext(ctx, "look for due messages", "error", err)
		}
		return false
	}
	taken := 0
	for _, m := range due {
		if taken == free {
			return true
		}
		if busy.add(m) {
			jobs <- m
			taken++
		}
	}
	// Messages of the endpoints left out become takeable as soon as one
	// of theirs finishes.
	return len(due) == free*overRead || len(full) > 0 || taken < len(due)
}

// overRead is how many due messages a look reads per free worker.
const overRead = 4

// inFlight tracks the messages the workers hold and how many per endpoint,
// so one slow or hanging endpoint (15 s per attempt) cannot take every
// worker and hold up all other workspaces.
type inFlight struct {
	perEndpoint map[string]int
	msgs        map[string]bool
	cap         int // most messages of one endpoint in flight
}

func newInFlight(workers int) *inFlight {
	return &inFlight{perEndpoint: map[string]int{}, msgs: map[string]bool{}, cap: max(1, workers/2)}
}

func (f *inFlight) len() int { return len(f.msgs) }

func (f *inFlight) ids() []string { return slices.Collect(maps.Keys(f.msgs)) }

// full lists the endpoints at their cap.
func (f *inFlight) full() []string {
	var out []string
	for key, n := range f.perEndpoint {
		if n >= f.cap {
			_, endpointID, _ := strings.Cut(key, ":")
			out = append(out, endpointID)
		}
	}
	return out
}

// add takes m unless its endpoint is at its cap.
func (f *inFlight) add(m messageDoc) bool {
	key := m.WorkspaceID + ":" + m.EndpointID
	if f.msgs[m.ID] || f.perEndpoint[key] >= f.cap {
		return false
	}
	f.msgs[m.ID] = true
	f.perEndpoint[key]++
	return true
}

func (f *inFlight) remove(m messageDoc) {
	key := m.WorkspaceID + ":" + m.EndpointID
	delete(f.msgs, m.ID)
	if f.perEndpoint[key]--; f.perEndpoint[key] <= 0 {
		delete(f.perEndpoint, key)
	}
}

// Finished messages leave the queue in batches of flushBatch, or after
// flushInterval at the latest. On FerretDB every delete scans the queue,
// and so does every look past the finished messages still in it: small,
// frequent batches measured best (BENCHMARKS.md).
const (
	flushBatch    = 16
	flushInterval = 200 * time.Millisecond
)

// dequeueFinished takes finished messages off the queue until ctx ends.
func (s *Service) dequeueFinished(ctx context.Context) {
	check := time.NewTicker(flushInterval / 10)
	defer check.Stop()
	last := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-check.C:
			if s.finished.len() >= flushBatch || time.Since(last) >= flushInterval {
				s.flushFinished(ctx)
				last = time.Now()
			}
		}
	}
}

// flushFinished dequeues the messages finished since the last flush. Until
// then they stay excluded from this replica's looks; another replica
// finding one repairs nothing and finishes it again (attempt.go).
func (s *Service) flushFinished(ctx context.Context) {
	ids := s.finished.list()
	if len(ids) == 0 {
		return
	}
	if err := s.store.dequeue(ctx, ids); err != nil {
		if ctx.Err() == nil {
			s.logger.WarnContext(ctx, "dequeue finished messages", "count", len(ids), "error", err)
		}
		return
	}
	s.finished.remove(ids)
}

// deliver runs one attempt. A started attempt is finished even when ctx
// ends (shutdown) so its result is recorded; the request itself is bounded
// by Timeout, the store work around it by attemptBudget.
func (s *Service) deliver(ctx context.Context, m messageDoc) {
	if ctx.Err() != nil {
		return
	}
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.opts.Lease+attemptBudget)
	defer cancel()
	if err := s.attempt(dctx, m); err != nil {
		s.logger.WarnContext(ctx, "webhook attempt", "messageId", m.ID, "error", err)
	}
}

// idSet is a set of message ids shared by the workers and the dispatcher.
type idSet struct {
	mu  sync.Mutex
	ids map[string]struct{}
}

func (s *idSet) add(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ids == nil {
		s.ids = map[string]struct{}{}
	}
	s.ids[id] = struct{}{}
}

func (s *idSet) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.ids)
}

func (s *idSet) list() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Collect(maps.Keys(s.ids))
}

func (s *idSet) remove(ids []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range ids {
		delete(s.ids, id)
	}
}
