package events_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/opencollab/backend/pkg/embedded"
	"github.com/opencollab/backend/pkg/events"
	"github.com/opencollab/backend/pkg/testenv"
)

// quick makes the relay look at the outbox often and send at once.
var quick = events.PublisherOptions{RelayInterval: 20 * time.Millisecond, RelayGrace: time.Millisecond}

func sortedIDs(ids []string) []string {
	out := slices.Clone(ids)
	slices.Sort(out)
	return out
}

// runRelay runs p's relay until the returned stop (also run at cleanup).
func runRelay(t *testing.T, p *events.Publisher) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); p.WithOptions(quick).RunRelay(ctx) }()
	stop = func() { cancel(); <-done }
	t.Cleanup(stop)
	return stop
}

// inProcessRedis is the Redis of deploy/local: in memory, gone with the
// process. kill loses everything it held.
func inProcessRedis(t *testing.T) (rdb *redis.Client, kill func()) {
	t.Helper()
	url, stop, err := embedded.StartRedis()
	if err != nil {
		t.Fatal(err)
	}
	opts, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	rdb = redis.NewClient(opts)
	t.Cleanup(func() { _ = rdb.Close(); stop() })
	return rdb, func() { _ = rdb.Close(); stop() }
}

func publishN(t *testing.T, p *events.Publisher, n int) []string {
	t.Helper()
	ids := make([]string, n)
	for i := range ids {
		e := newEvent(t, "activity.add", map[string]any{"n": i})
		if err := p.Publish(context.Background(), e); err != nil {
			t.Fatal(err)
		}
		ids[i] = e.ID
	}
	return ids
}

func TestOutboxKeepsEventsUntilEveryGroupAcknowledged(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rdb, db := testenv.Redis(t), testenv.Mongo(t)
	p := events.NewPublisher(rdb, db, "test", testLogger(t))
	for _, g := range []string{"fast", "slow"} {
		if err := rdb.XGroupCreateMkStream(ctx, "events:test", g, "0").Err(); err != nil {
			t.Fatal(err)
		}
	}
	ids := publishN(t, p, 6)
	quickGroup := newRecorder(nil)
	run(t, events.NewConsumer(rdb, "fast", "c1", []string{"events:test"}, quickGroup.handle, testLogger(t)).WithOptions(fast))
	waitFor(t, "group fast to handle all", func() bool { return len(quickGroup.handledEvents()) == 6 })
	runRelay(t, p)
	time.Sleep(200 * time.Millisecond) // several relay passes
	if got := outboxIDs(t, db); len(got) != 6 {
		t.Fatalf("outbox holds %d events while group slow has read none, want 6", len(got))
	}

	// slow reads the first four, acknowledges all but the second.
	res, err := rdb.XReadGroup(ctx, &redis.XReadGroupArgs{Group: "slow", Consumer: "s", Streams: []string{"events:test", ">"}, Count: 4}).Result()
	if err != nil {
		t.Fatal(err)
	}
	msgs := res[0].Messages
	for i, m := range msgs {
		if i != 1 {
			if err := rdb.XAck(ctx, "events:test", "slow", m.ID).Err(); err != nil {
				t.Fatal(err)
			}
		}
	}
	want := ids[1:] // the unacknowledged second, and the unread rest
	waitFor(t, "the first event to be pruned", func() bool { return len(outboxIDs(t, db)) == len(want) })
	if got := outboxIDs(t, db); !slices.Equal(sortedIDs(got), sortedIDs(want)) {
		t.Fatalf("outbox holds %v, want %v", got, want)
	}
}

// The in-process Redis dies with the process: an event Redis took but a
// group had not processed must be appended again to the next Redis, an
// event every group processed must not.
func TestEventsOutliveAnInProcessRedis(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testenv.Mongo(t)
	first, kill := inProcessRedis(t)
	if err := first.XGroupCreateMkStream(ctx, "events:test", "g", "0").Err(); err != nil {
		t.Fatal(err)
	}
	p := events.NewPublisher(first, db, "test", testLogger(t))
	processed := publishN(t, p, 3)
	done := newRecorder(nil)
	stopConsumer := runUntil(t, events.NewConsumer(first, "g", "c", []string{"events:test"}, done.handle, testLogger(t)).WithOptions(fast))
	waitFor(t, "the first three to be handled", func() bool { return len(done.handledEvents()) == 3 })
	stopConsumer()
	stopRelay := runRelay(t, p)
	waitFor(t, "the processed events to be pruned", func() bool { return len(outboxIDs(t, db)) == 0 })
	stopRelay()
	lost := publishN(t, p, 4) // in the stream, never consumed
	kill()

	second, _ := inProcessRedis(t)
	after := events.NewPublisher(second, db, "test", testLogger(t))
	again := newRecorder(nil)
	run(t, events.NewConsumer(second, "g", "c", []string{"events:test"}, again.handle, testLogger(t)).WithOptions(fast))
	runRelay(t, after)
	waitFor(t, "the unprocessed events to arrive again", func() bool { return len(again.handledEvents()) >= len(lost) })
	waitFor(t, "the outbox to empty", func() bool { return len(outboxIDs(t, db)) == 0 })
	var got []string
	for _, e := range again.handledEvents() {
		got = append(got, e.ID)
	}
	if !slices.Equal(sortedIDs(got), sortedIDs(lost)) {
		t.Fatalf("the new Redis delivered %v, want exactly the unprocessed %v (processed before: %v)", got, lost, processed)
	}
}

// runUntil starts c and returns a stop that waits for it.
func runUntil(t *testing.T, c *events.Consumer) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = c.Run(ctx) }()
	stop = func() { cancel(); <-done }
	t.Cleanup(stop)
	return stop
}

// A relay or Publish records a batch with one update; an event of the batch
// a group has not acknowledged must stay however many of its batch-mates
// were acknowledged, and the batch goes once all are.
func TestOutboxKeepsABatchUntilItsLastEventIsAcknowledged(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rdb, db := testenv.Redis(t), testenv.Mongo(t)
	if err := rdb.XGroupCreateMkStream(ctx, "events:test", "g", "0").Err(); err != nil {
		t.Fatal(err)
	}
	p := events.NewPublisher(rdb, db, "test", testLogger(t))
	batch := make([]events.Event, 5)
	for i := range batch {
		batch[i] = newEvent(t, "activity.add", map[string]any{"n": i})
	}
	if err := p.Publish(ctx, batch...); err != nil {
		t.Fatal(err)
	}
	res, err := rdb.XReadGroup(ctx, &redis.XReadGroupArgs{Group: "g", Consumer: "c", Streams: []string{"events:test", ">"}, Count: 5}).Result()
	if err != nil {
		t.Fatal(err)
	}
	msgs := res[0].Messages
	for i, m := range msgs {
		if i != 2 {
			if err := rdb.XAck(ctx, "events:test", "g", m.ID).Err(); err != nil {
				t.Fatal(err)
			}
		}
	}
	runRelay(t, p)
	time.Sleep(200 * time.Millisecond) // several prune passes
	if got := outboxIDs(t, db); !slices.Contains(got, batch[2].ID) {
		t.Fatalf("outbox holds %v: the unacknowledged %s was pruned", got, batch[2].ID)
	}
	if err := rdb.XAck(ctx, "events:test", "g", msgs[2].ID).Err(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the acknowledged batch to be pruned", func() bool { return len(outboxIDs(t, db)) == 0 })
}
