package events_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/events"
	"github.com/opencollab/backend/pkg/testenv"
)

// streamEvents decodes every entry of stream.
func streamEvents(t *testing.T, rdb *redis.Client, stream string) []events.Event {
	t.Helper()
	msgs, err := rdb.XRange(context.Background(), stream, "-", "+").Result()
	if err != nil {
		t.Fatal(err)
	}
	out := make([]events.Event, 0, len(msgs))
	for _, m := range msgs {
		var e events.Event
		if err := json.Unmarshal([]byte(m.Values["event"].(string)), &e); err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return out
}

func outboxIDs(t *testing.T, db *mongo.Database) []string {
	t.Helper()
	cur, err := db.Collection("outbox").Find(context.Background(), bson.M{}, options.Find().SetSort(bson.D{{Key: "createdAt", Value: 1}}))
	if err != nil {
		t.Fatal(err)
	}
	var docs []struct {
		ID     string `bson:"_id"`
		Stream string `bson:"stream"`
	}
	if err := cur.All(context.Background(), &docs); err != nil {
		t.Fatal(err)
	}
	ids := []string{}
	for _, d := range docs {
		if d.Stream != events.Stream("test") {
			t.Fatalf("outbox doc %s names stream %q", d.ID, d.Stream)
		}
		ids = append(ids, d.ID)
	}
	return ids
}

func TestPublishAppendsToTheSourceStream(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rdb, db := testenv.Redis(t), testenv.Mongo(t)
	p := events.NewPublisher(rdb, db, "test", testLogger(t))
	a, b := newEvent(t, "activity.add", map[string]any{"n": 1}), newEvent(t, "activity.update", map[string]any{"n": 2})
	b.Source = "" // the publisher fills it in
	if err := p.Publish(ctx, a, b); err != nil {
		t.Fatal(err)
	}
	got := streamEvents(t, rdb, "events:test")
	b.Source = "test"
	if !reflect.DeepEqual(got, []events.Event{a, b}) {
		t.Fatalf("stream holds %+v, want %+v", got, []events.Event{a, b})
	}
	// The outbox keeps them until a consumer group has processed them.
	if ids := outboxIDs(t, db); !reflect.DeepEqual(sortedIDs(ids), sortedIDs([]string{a.ID, b.ID})) {
		t.Fatalf("outbox holds %v, want %s and %s", ids, a.ID, b.ID)
	}
}

func TestPublishRefusesEventsWithoutID(t *testing.T) {
	t.Parallel()
	rdb := testenv.Redis(t)
	p := events.NewPublisher(rdb, nil, "test", testLogger(t))
	if err := p.Publish(context.Background(), events.Event{Type: "activity.add"}); err == nil {
		t.Fatal("an event without id was published")
	}
	if n, _ := rdb.XLen(context.Background(), "events:test").Result(); n != 0 {
		t.Fatalf("stream has %d entries", n)
	}
}

func TestPublishTrimsTheStream(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rdb := testenv.Redis(t)
	p := events.NewPublisher(rdb, nil, "test", testLogger(t)).WithOptions(events.PublisherOptions{MaxLen: 10})
	const total = 500
	for range total / 50 {
		batch := make([]events.Event, 50)
		for i := range batch {
			batch[i] = newEvent(t, "activity.add", i)
		}
		if err := p.Publish(ctx, batch...); err != nil {
			t.Fatal(err)
		}
	}
	// Approximate trimming drops whole stream nodes, so the length stays
	// above MaxLen but well below what was published.
	if n, err := rdb.XLen(ctx, "events:test").Result(); err != nil || n >= total {
		t.Fatalf("stream length %d (err %v) after %d events with MaxLen 10", n, err, total)
	}
}

func TestRedisDownKeepsEventsInTheOutboxUntilRelayed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rdb, db := testenv.Redis(t), testenv.Mongo(t)
	down := events.NewPublisher(deadRedis(t), db, "test", testLogger(t))
	if err := down.EnsureIndexes(ctx); err != nil {
		t.Fatal(err)
	}
	first, second := newEvent(t, "comment.add", map[string]any{"text": "hi"}), newEvent(t, "comment.update", nil)
	if err := down.Publish(ctx, first); err != nil {
		t.Fatalf("publish with Redis down: %v", err)
	}
	if err := down.Publish(ctx, second); err != nil {
		t.Fatalf("publish with Redis down: %v", err)
	}
	// A publish retried by its caller must not fail on the stored copy.
	if err := down.Publish(ctx, first); err != nil {
		t.Fatalf("publish retried with Redis down: %v", err)
	}
	if ids := outboxIDs(t, db); len(ids) != 2 {
		t.Fatalf("outbox holds %v, want the two events once each", ids)
	}
	if n, _ := rdb.XLen(ctx, "events:test").Result(); n != 0 {
		t.Fatalf("stream has %d entries before the relay", n)
	}

	stop := runRelay(t, events.NewPublisher(rdb, db, "test", testLogger(t)))
	waitFor(t, "the relay to append both", func() bool { return len(streamEvents(t, rdb, "events:test")) == 2 })
	stop()

	got := streamEvents(t, rdb, "events:test")
	byID := map[string]events.Event{}
	for _, e := range got {
		byID[e.ID] = e
	}
	if len(got) != 2 || !reflect.DeepEqual(byID[first.ID], first) || !reflect.DeepEqual(byID[second.ID], second) {
		t.Fatalf("stream holds %+v, want %+v and %+v", got, first, second)
	}
	// Relayed is not processed: no group has read them yet.
	if ids := outboxIDs(t, db); len(ids) != 2 {
		t.Fatalf("outbox holds %v after the relay, want both events until consumed", ids)
	}
}

func TestPublishFailsWhenRedisAndOutboxFail(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	// A database nobody serves: the driver connects lazily and the insert
	// fails once server selection times out.
	client, err := mongo.Connect(options.Client().ApplyURI("mongodb://" + deadRedis(t).Options().Addr).
		SetServerSelectionTimeout(300 * time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Disconnect(context.Background()) })

	tests := []struct {
		name string
		db   *mongo.Database
	}{
		{"outbox unreachable", client.Database("nowhere")},
		{"no outbox", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := events.NewPublisher(deadRedis(t), tt.db, "test", testLogger(t))
			if err := p.Publish(ctx, newEvent(t, "activity.add", nil)); err == nil {
				t.Fatal("publish reported success with Redis and the outbox down")
			}
		})
	}
}
