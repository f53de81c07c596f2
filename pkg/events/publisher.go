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
)

// outboxColl is the collection, in the publishing service's own database,
// holding events Redis could not take.
const outboxColl = "outbox"

// payloadField is the stream entry field holding the event JSON.
const payloadField = "event"

// PublisherOptions tune a Publisher; zero fields take the defaults.
type PublisherOptions struct {
	MaxLen        int64
	RelayInterval time.Duration
	RelayBatch    int
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
	return o
}

// Publisher publishes the events of one source service.
type Publisher struct {
	rdb    *redis.Client
	outbox *mongo.Collection // nil without a database: no fallback
	source string
	stream string
	logger *slog.Logger
	opts   PublisherOptions
}

// outboxDoc is an event waiting for Redis.
type outboxDoc struct {
	ID        string    `bson:"_id"` // the event id: a retried insert is a no-op
	Stream    string    `bson:"stream"`
	Event     string    `bson:"event"` // the event JSON, as it goes on the stream
	CreatedAt time.Time `bson:"createdAt"`
}

// NewPublisher returns a publisher of source's events on Stream(source),
// with db's `outbox` collection as the fallback (db may be nil in tools
// that accept losing events when Redis is down).
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

// Publish appends events to the source's stream in one pipeline. Events
// Redis refuses go to the outbox; the error is non-nil only when an event
// reached neither. An event without Source gets the publisher's.
func (p *Publisher) Publish(ctx context.Context, events ...Event) error {
	payloads, err := p.encode(events)
	if err != nil || len(payloads) == 0 {
		return err
	}
	failed, redisErr := p.xadd(ctx, payloads)
	if redisErr == nil {
		return nil
	}
	p.logger.WarnContext(ctx, "events: redis refused events, keeping them in the outbox",
		"stream", p.stream, "count", len(failed), "error", redisErr)
	if err := p.saveToOutbox(ctx, failed); err != nil {
		return fmt.Errorf("events: publish %d events to %s: %w", len(failed), p.stream, errors.Join(redisErr, err))
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

// xadd pipelines one XADD per event and returns the events that failed
// (all of them when Redis is unreachable) with the first error.
func (p *Publisher) xadd(ctx context.Context, events []pending) (failed []pending, err error) {
	if p.rdb == nil {
		return events, errors.New("no redis client")
	}
	pipe := p.rdb.Pipeline()
	cmds := make([]*redis.StringCmd, len(events))
	for i, e := range events {
		cmds[i] = pipe.XAdd(ctx, &redis.XAddArgs{
			Stream: e.stream,
			MaxLen: p.opts.MaxLen,
			Approx: true,
			Values: []any{payloadField, e.payload},
		})
	}
	_, err = pipe.Exec(ctx)
	if err == nil {
		return nil, nil
	}
	for i, cmd := range cmds {
		if cmd.Err() != nil {
			failed = append(failed, events[i])
		}
	}
	if len(failed) == 0 { // Exec failed without a command failing: be safe
		failed = events
	}
	return failed, err
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
