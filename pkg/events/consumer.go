package events

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Handler persists the effect of one event. Returning nil acknowledges it;
// an error leaves it pending so it is delivered again. It must be idempotent
// by Event.ID: every event can arrive more than once.
type Handler func(ctx context.Context, e Event) error

// Options tune a Consumer; zero fields take the defaults.
type Options struct {
	// Count is the most messages one read returns (default 100).
	Count int64
	// Block is how long a read waits for new messages (default 500ms). A
	// done context ends a waiting read at once (CLIENT UNBLOCK).
	Block time.Duration
	// ClaimInterval is how often pending messages are reclaimed (default 10s).
	ClaimInterval time.Duration
	// MinIdle is how long a message stays pending, with any consumer of the
	// group, before this one takes it over and retries it (default 30s).
	MinIdle time.Duration
	// MaxDeliveries is how often a message is handed to a handler before it
	// is given up on (default 10).
	MaxDeliveries int64
	// RetryPause is the wait after a Redis error (default 1s).
	RetryPause time.Duration
}

func (o Options) withDefaults() Options {
	if o.Count <= 0 {
		o.Count = 100
	}
	if o.Block <= 0 {
		o.Block = 500 * time.Millisecond
	}
	if o.ClaimInterval <= 0 {
		o.ClaimInterval = 10 * time.Second
	}
	if o.MinIdle <= 0 {
		o.MinIdle = 30 * time.Second
	}
	if o.MaxDeliveries <= 0 {
		o.MaxDeliveries = 10
	}
	if o.RetryPause <= 0 {
		o.RetryPause = time.Second
	}
	return o
}

// ackTimeout bounds an acknowledgement sent after the handler succeeded,
// even while shutting down: an effect already persisted should not be
// delivered again just because the process is stopping.
const ackTimeout = 5 * time.Second

// Consumer reads streams as one member (name) of a consumer group.
type Consumer struct {
	rdb     *redis.Client
	group   string
	name    string
	streams []string
	h       Handler
	logger  *slog.Logger
	opts    Options
}

// NewConsumer returns a consumer named name (unique per process, e.g. the
// host name) in group, reading streams with h.
func NewConsumer(rdb *redis.Client, group, name string, streams []string, h Handler, logger *slog.Logger) *Consumer {
	if logger == nil {
		logger = slog.Default()
	}
	logger = logger.With("group", group, "consumer", name)
	return &Consumer{rdb: rdb, group: group, name: name, streams: streams, h: h, logger: logger, opts: Options{}.withDefaults()}
}

// WithOptions sets the options (before Run) and returns c.
func (c *Consumer) WithOptions(o Options) *Consumer {
	c.opts = o.withDefaults()
	return c
}

// Run consumes until ctx is done and then returns nil. Redis errors are
// logged and retried, never returned: a consumer outlives Redis restarts.
func (c *Consumer) Run(ctx context.Context) error {
	if c.rdb == nil || c.h == nil || len(c.streams) == 0 || c.group == "" || c.name == "" {
		return errors.New("events: consumer needs a redis client, group, name, streams and handler")
	}
	reader := &blockingReader{rdb: c.rdb}
	defer reader.close()
	groupsReady := false
	var lastClaim time.Time
	for ctx.Err() == nil {
		if !groupsReady {
			if err := c.ensureGroups(ctx); err != nil {
				c.pauseAfter(ctx, "create consumer groups", err)
				continue
			}
			groupsReady = true
		}
		if time.Since(lastClaim) >= c.opts.ClaimInterval {
			c.reclaim(ctx)
			lastClaim = time.Now()
		}
		if err := c.readNew(ctx, reader); err != nil {
			// A stream deleted under us (FLUSHALL, a Redis without
			// persistence restarting) loses its group too.
			if strings.HasPrefix(err.Error(), "NOGROUP") {
				groupsReady = false
			}
			c.pauseAfter(ctx, "read streams", err)
		}
	}
	return nil
}

// ensureGroups creates the group on every stream (and the stream itself),
// reading from the beginning, so events published before the first start are
// not skipped.
func (c *Consumer) ensureGroups(ctx context.Context) error {
	for _, s := range c.streams {
		err := c.rdb.XGroupCreateMkStream(ctx, s, c.group, "0").Err()
		if err != nil && !strings.HasPrefix(err.Error(), "BUSYGROUP") {
			return fmt.Errorf("create group %s on %s: %w", c.group, s, err)
		}
	}
	return nil
}

func (c *Consumer) pauseAfter(ctx context.Context, what string, err error) {
	if ctx.Err() != nil {
		return
	}
	c.logger.WarnContext(ctx, "events: "+what+" failed, retrying", "error", err)
	t := time.NewTimer(c.opts.RetryPause)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// readNew reads messages never delivered to the group and handles them.
func (c *Consumer) readNew(ctx context.Context, reader *blockingReader) error {
	args := make([]string, 0, 2*len(c.streams))
	args = append(args, c.streams...)
	for range c.streams {
		args = append(args, ">")
	}
	res, err := reader.read(ctx, &redis.XReadGroupArgs{
		Group: c.group, Consumer: c.name, Streams: args, Count: c.opts.Count, Block: c.opts.Block,
	})
	if errors.Is(err, redis.Nil) || ctx.Err() != nil {
		return nil
	}
	if err != nil {
		return err
	}
	for _, s := range res {
		for _, m := range s.Messages {
			if ctx.Err() != nil {
				return nil // the rest stay pending and are reclaimed
			}
			c.handle(ctx, s.Stream, m)
		}
	}
	return nil
}

// handle decodes and handles one message, acknowledging it on success.
func (c *Consumer) handle(ctx context.Context, stream string, m redis.XMessage) {
	e, err := decodeMessage(m)
	if err != nil {
		// It will never decode: retrying would only block the group.
		c.logger.ErrorContext(ctx, "events: dropping undecodable message", "stream", stream, "messageId", m.ID, "error", err)
		c.ack(ctx, stream, m.ID)
		return
	}
	observeLag(ctx, stream, c.group, m.ID)
	if err := c.call(ctx, e); err != nil {
		c.logger.WarnContext(ctx, "events: handler failed, the event stays pending and is retried",
			"stream", stream, "eventId", e.ID, "type", e.Type, "error", err)
		return
	}
	c.ack(ctx, stream, m.ID)
}

// call runs the handler, turning a panic into an error so one bad event
// does not stop the consumer.
func (c *Consumer) call(ctx context.Context, e Event) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("handler panicked: %v", p)
		}
	}()
	return c.h(ctx, e)
}

func (c *Consumer) ack(ctx context.Context, stream, id string) {
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ackTimeout)
	defer cancel()
	if err := c.rdb.XAck(actx, stream, c.group, id).Err(); err != nil {
		// Not fatal: the message is reclaimed and handled again, which the
		// handler's idempotency absorbs.
		c.logger.WarnContext(ctx, "events: ack failed", "stream", stream, "messageId", id, "error", err)
	}
}

func decodeMessage(m redis.XMessage) (Event, error) {
	raw, ok := m.Values[payloadField].(string)
	if !ok {
		return Event{}, fmt.Errorf("message has no %q field", payloadField)
	}
	var e Event
	if err := json.Unmarshal([]byte(raw), &e); err != nil {
		return Event{}, fmt.Errorf("decode event: %w", err)
	}
	return e, nil
}
