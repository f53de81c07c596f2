package events

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/redis/go-redis/v9"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/mongodb"
)

// Defaults of the publisher.
const (
	// DefaultMaxLen caps each stream (approximately, so Redis trims whole
	// nodes cheaply). Consumers that fall a million events behind lose the
	// oldest ones; the cap keeps an abandoned stream from filling Redis.
	DefaultMaxLen = 1_000_000
	// DefaultRelayInterval is how often RunRelay looks at the outbox.
	DefaultRelayInterval = 2 * time.Second
	// DefaultRelayBatch is how many outbox documents one relay pass moves.
	DefaultRelayBatch = 500
	// DefaultRelayGrace is how old an unrelayed outbox document must be
	// before the relay sends it: younger ones are still being sent by the
	// Publish that stored them.
	DefaultRelayGrace = 2 * time.Second
	// DefaultOrphanRetention is how long relayed events of a stream that no
	// consumer group reads are kept (nobody will ever confirm them).
	DefaultOrphanRetention = time.Hour
)

// outboxColl is the collection, in the publishing service's own database,
// holding every event until each consumer group has processed it.
const outboxColl = "outbox"

// payloadField is the stream entry field holding the event JSON.
const payloadField = "event"

// PublisherOptions tune a Publisher; zero fields take the defaults.
type PublisherOptions struct {
	MaxLen          int64
	RelayInterval   time.Duration
	RelayBatch      int
	RelayGrace      time.Duration
	OrphanRetention time.Duration
}

func (o PublisherOptions) withDefaults() PublisherOptions {
	if o.MaxLen <= 0 {
		o.MaxLen = DefaultMaxLen
	}
	if o.RelayInterval <= 0 {
		o.RelayInterval = DefaultRelayInterval
	}
	if o.RelayBatch <= 0 {
		o.RelayBatch = DefaultRelayBatch
	}
	if o.RelayGrace <= 0 {
		o.RelayGrace = DefaultRelayGrace
	}
	if o.OrphanRetention <= 0 {
		o.OrphanRetention = DefaultOrphanRetention
	}
	return o
}

// Publisher publishes the events of one source service.
type Publisher struct {
	rdb    *redis.Client
	outbox *mongo.Collection // nil without a database: Redis only
	source string
	stream string
	logger *slog.Logger
	opts   PublisherOptions
}

// outboxDoc is one published event, kept until every consumer group of its
// stream has processed it. Epoch names the Redis it was appended to (""
// before that) and StreamMs-StreamSeq its entry id there; an event whose
// Redis lost its data (a new epoch) is appended again.
type outboxDoc struct {
	ID        string    `bson:"_id"` // the event id: a retried insert is a no-op
	Stream    string    `bson:"stream"`
	Event     string    `bson:"event"` // the event JSON, as it goes on the stream
	CreatedAt time.Time `bson:"createdAt"`
	Epoch     string    `bson:"epoch"`
	StreamMs  int64     `bson:"streamMs"`
	StreamSeq int64     `bson:"streamSeq"`
}

// NewPublisher returns a publisher of source's events on Stream(source),
// with db's `outbox` collection as the store of record (db may be nil in
// tools that accept losing events when Redis loses them).
func NewPublisher(rdb *redis.Client, db *mongo.Database, source string, logger *slog.Logger) *Publisher {
	if logger == nil {
		logger = slog.Default()
	}
	p := &Publisher{rdb: rdb, source: source, stream: Stream(source), logger: logger, opts: PublisherOptions{}.withDefaults()}
	if db != nil {
		p.outbox = db.Collection(outboxColl)
	}
	return p
}

// WithOptions sets the options (before use) and returns p.
func (p *Publisher) WithOptions(o PublisherOptions) *Publisher {
	p.opts = o.withDefaults()
	return p
}

// EnsureIndexes creates the outbox index the relay reads by; safe at every
// start.
func (p *Publisher) EnsureIndexes(ctx context.Context) error {
	if p.outbox == nil {
		return nil
	}
	return mongodb.EnsureIndexes(ctx, p.outbox, mongo.IndexModel{
		Keys:    bson.D{{Key: "createdAt", Value: 1}},
		Options: options.Index().SetName("createdAt"),
	})
}

// Publish stores events in the outbox, then appends them to the source's
// stream. Once it returns nil the events survive a crash of this process
// and of an in-process Redis: the outbox keeps each one until every
// consumer group has processed it, and RunRelay appends again what Redis
// did not take or lost. Without an outbox (or with its database down)
// Redis alone must take them. An event without Source gets the
// publisher's.
func (p *Publisher) Publish(ctx context.Context, events ...Event) error {
	batch, err := p.encode(events)
	if err != nil || len(batch) == 0 {
		return err
	}
	if p.outbox == nil {
		_, _, err := p.xadd(ctx, batch)
		if err != nil {
			return fmt.Errorf("events: publish %d events to %s: %w", len(batch), p.stream, err)
		}
		return nil
	}
	if err := p.saveToOutbox(ctx, batch); err != nil {
		// The store of record is down; Redis alone still carries them.
		if _, _, redisErr := p.xadd(ctx, batch); redisErr != nil {
			return fmt.Errorf("events: publish %d events to %s: %w", len(batch), p.stream, errors.Join(err, redisErr))
		}
		p.logger.WarnContext(ctx, "events: outbox unavailable, events went to Redis only",
			"stream", p.stream, "count", len(batch), "error", err)
		return nil
	}
	if _, err := p.send(ctx, batch); err != nil {
		p.logger.WarnContext(ctx, "events: redis did not take events, the relay will send them",
			"stream", p.stream, "count", len(batch), "error", err)
	}
	return nil
}

// pending is an encoded event on its way to a stream.
type pending struct {
	id, stream, payload string
}

func (p *Publisher) encode(events []Event) ([]pending, error) {
	out := make([]pending, 0, len(events))
	for _, e := range events {
		if e.Source == "" {
			e.Source = p.source
		}
		if err := e.validate(); err != nil {
			return nil, err
		}
		b, err := json.Marshal(e)
		if err != nil {
			return nil, fmt.Errorf("events: encode %s: %w", e.ID, err)
		}
		out = append(out, pending{id: e.ID, stream: p.stream, payload: string(b)})
	}
	return out, nil
}

func (p *Publisher) saveToOutbox(ctx context.Context, events []pending) error {
	if p.outbox == nil {
		return errors.New("no outbox configured")
	}
	now := time.Now().UTC()
	docs := make([]any, len(events))
	for i, e := range events {
		docs[i] = outboxDoc{ID: e.id, Stream: e.stream, Event: e.payload, CreatedAt: now}
	}
	_, err := p.outbox.InsertMany(ctx, docs, options.InsertMany().SetOrdered(false))
	if err != nil && !onlyDuplicates(err) {
		return fmt.Errorf("outbox insert: %w", err)
	}
	return nil
}

// onlyDuplicates reports whether every write error of an unordered insert
// is a duplicate key: those events are already in the outbox (a retry).
func onlyDuplicates(err error) bool {
	var bwe mongo.BulkWriteException
	if !errors.As(err, &bwe) || bwe.WriteConcernError != nil || len(bwe.WriteErrors) == 0 {
		return false
	}
	for _, we := range bwe.WriteErrors {
		if we.Code != 11000 {
			return false
		}
	}
	return true
}
