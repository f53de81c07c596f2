package events_test

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/events"
	"github.com/opencollab/backend/pkg/testenv"
)

// recorder is a handler that records what it was given and fails while
// fail says so.
type recorder struct {
	mu       sync.Mutex
	attempts map[string]int // event id → handler calls
	handled  []events.Event // successful calls
	fail     func(e events.Event, attempt int) bool
}

func newRecorder(fail func(events.Event, int) bool) *recorder {
	return &recorder{attempts: map[string]int{}, fail: fail}
}

func (r *recorder) handle(_ context.Context, e events.Event) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.attempts[e.ID]++
	if r.fail != nil && r.fail(e, r.attempts[e.ID]) {
		return errors.New("handler failed on purpose")
	}
	r.handled = append(r.handled, e)
	return nil
}

func (r *recorder) attemptsOf(id string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.attempts[id]
}

func (r *recorder) handledEvents() []events.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]events.Event(nil), r.handled...)
}

func TestPublishConsumeAck(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rdb := testenv.Redis(t)
	p := events.NewPublisher(rdb, testenv.Mongo(t), "test", testLogger(t))
	// Published before the group exists: the group starts at the stream's
	// beginning, so it is not skipped.
	early := newEvent(t, "activity.add", map[string]any{"n": 1})
	if err := p.Publish(ctx, early); err != nil {
		t.Fatal(err)
	}
	rec := newRecorder(nil)
	run(t, events.NewConsumer(rdb, "memory", "c1", []string{"events:test", "events:other"}, rec.handle, testLogger(t)).WithOptions(fast))

	late := newEvent(t, "activity.update", map[string]any{"n": 2})
	if err := p.Publish(ctx, late); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "both events to be handled", func() bool { return len(rec.handledEvents()) == 2 })
	if got := rec.handledEvents(); !reflect.DeepEqual(got, []events.Event{early, late}) {
		t.Fatalf("handled %+v, want %+v", got, []events.Event{early, late})
	}
	waitFor(t, "the acks", func() bool { return pendingCount(t, rdb, "events:test", "memory") == 0 })
	for _, e := range []events.Event{early, late} {
		if n := rec.attemptsOf(e.ID); n != 1 {
			t.Fatalf("event %s handled %d times, want once", e.ID, n)
		}
	}

	// A second stream of the same consumer is read as well.
	other := events.NewPublisher(rdb, nil, "other", testLogger(t))
	e := newEvent(t, "comment.add", nil)
	if err := other.Publish(ctx, e); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the other stream's event", func() bool { return rec.attemptsOf(e.ID) == 1 })
}

func TestFailedHandlerGetsTheEventAgain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rdb := testenv.Redis(t)
	rec := newRecorder(func(_ events.Event, attempt int) bool { return attempt == 1 })
	run(t, events.NewConsumer(rdb, "memory", "c1", []string{"events:test"}, rec.handle, testLogger(t)).WithOptions(fast))

	e := newEvent(t, "activity.add", nil)
	if err := events.NewPublisher(rdb, nil, "test", testLogger(t)).Publish(ctx, e); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the retried event to be handled", func() bool { return len(rec.handledEvents()) == 1 })
	waitFor(t, "the ack", func() bool { return pendingCount(t, rdb, "events:test", "memory") == 0 })
	if n := rec.attemptsOf(e.ID); n != 2 {
		t.Fatalf("handler called %d times, want 2 (one failure, one retry)", n)
	}
}

func TestPoisonEventIsGivenUpAfterMaxDeliveries(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rdb := testenv.Redis(t)
	rec := newRecorder(func(events.Event, int) bool { return true })
	opts := fast
	opts.MaxDeliveries = 3
	run(t, events.NewConsumer(rdb, "memory", "c1", []string{"events:test"}, rec.handle, testLogger(t)).WithOptions(opts))

	e := newEvent(t, "activity.add", nil)
	if err := events.NewPublisher(rdb, nil, "test", testLogger(t)).Publish(ctx, e); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the poison event to be acknowledged", func() bool {
		return rec.attemptsOf(e.ID) > 0 && pendingCount(t, rdb, "events:test", "memory") == 0
	})
	if n := rec.attemptsOf(e.ID); n != 3 {
		t.Fatalf("handler called %d times, want MaxDeliveries = 3", n)
	}
}

func TestConsumersOfOneGroupShareEvents(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rdb := testenv.Redis(t)
	// Each consumer's first call waits until the other has an event too.
	// With Count 1 a waiting consumer holds one message, so the other one
	// must be served from the stream: both take part, by construction.
	started := map[string]chan struct{}{"a": make(chan struct{}), "b": make(chan struct{})}
	var mu sync.Mutex
	seen := map[string][]string{} // event id → consumers that handled it
	perConsumer := map[string]int{}
	handler := func(name, other string) events.Handler {
		var once sync.Once
		return func(ctx context.Context, e events.Event) error {
			once.Do(func() {
				close(started[name])
				select {
				case <-started[other]:
				case <-ctx.Done():
				case <-time.After(waitTimeout):
				}
			})
			mu.Lock()
			defer mu.Unlock()
			seen[e.ID] = append(seen[e.ID], name)
			perConsumer[name]++
			return nil
		}
	}
	opts := fast
	opts.Count = 1
	opts.MinIdle = time.Hour // no reclaims: every delivery is a first one
	run(t, events.NewConsumer(rdb, "memory", "a", []string{"events:test"}, handler("a", "b"), testLogger(t)).WithOptions(opts))
	run(t, events.NewConsumer(rdb, "memory", "b", []string{"events:test"}, handler("b", "a"), testLogger(t)).WithOptions(opts))

	const total = 20
	batch := make([]events.Event, total)
	for i := range batch {
		batch[i] = newEvent(t, "activity.add", i)
	}
	if err := events.NewPublisher(rdb, nil, "test", testLogger(t)).Publish(ctx, batch...); err != nil {
		t.Fatal(err)
	}
	handledAll := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return perConsumer["a"]+perConsumer["b"] >= total
	}
	waitFor(t, "every event to be handled", handledAll)
	waitFor(t, "the acks", func() bool { return pendingCount(t, rdb, "events:test", "memory") == 0 })

	mu.Lock()
	defer mu.Unlock()
	for _, e := range batch {
		if got := seen[e.ID]; len(got) != 1 {
			t.Errorf("event %s handled by %v, want exactly one consumer", e.ID, got)
		}
	}
	if len(seen) != total {
		t.Errorf("%d distinct events handled, want %d", len(seen), total)
	}
	if perConsumer["a"] == 0 || perConsumer["b"] == 0 {
		t.Errorf("events per consumer %v: the group did not share them", perConsumer)
	}
}
