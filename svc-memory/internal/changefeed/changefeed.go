// Package changefeed tells every replica of svc-memory which judgments
// another replica indexed or deleted, so the per-process indexes (the
// lexical index always, the embedded vector index when there is no
// Qdrant) do not go stale on the replicas that did not consume the event.
//
// Activity events reach one replica of the consumer group each; the
// replica that indexed a judgment announces its record ids on a Redis
// stream that every replica reads whole (plain XREAD, no group). The
// notice names records, not their content: a follower reads the current
// state from the store of record, so notices can be applied late, twice
// or out of order and still converge.
package changefeed

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Stream is the Redis stream of the notices.
const Stream = "memory:changes"

// Tuning: the stream keeps about maxLen notices (a replica that falls
// further behind reloads at its next start); a read blocks up to block
// and takes up to count notices. A blocked read does not see its context
// end (go-redis), so stopping the service waits for one block: it is short
// (every test that stopped svc-memory waited 5 s with a 5 s one).
const (
	maxLen     = 100_000
	block      = 500 * time.Millisecond
	count      = 256
	retryAfter = time.Second
)

// Feed announces and follows changes. Safe for concurrent use.
type Feed struct {
	rdb    *redis.Client
	origin string // this process: its own notices are skipped
	logger *slog.Logger
}

// New returns a feed on rdb with a random origin id for this process.
func New(rdb *redis.Client, logger *slog.Logger) *Feed {
	var b [8]byte
	_, _ = rand.Read(b[:])
	if logger == nil {
		logger = slog.Default()
	}
	return &Feed{rdb: rdb, origin: hex.EncodeToString(b[:]), logger: logger}
}

// Announce records that the judgments recordIDs of workspace ws changed
// (indexed or deleted) on this replica.
func (f *Feed) Announce(ctx context.Context, ws string, recordIDs []string) error {
	if len(recordIDs) == 0 {
		return nil
	}
	return f.rdb.XAdd(ctx, &redis.XAddArgs{
		Stream: Stream, MaxLen: maxLen, Approx: true,
		Values: map[string]any{"origin": f.origin, "ws": ws, "ids": strings.Join(recordIDs, "\n")},
	}).Err()
}

// Position is the id of the newest notice ("0-0" when there is none):
// taken before a replica loads its index from the store, following from
// it misses nothing written meanwhile.
func (f *Feed) Position(ctx context.Context) (string, error) {
	msgs, err := f.rdb.XRevRangeN(ctx, Stream, "+", "-", 1).Result()
	if err != nil {
		return "", err
	}
	if len(msgs) == 0 {
		return "0-0", nil
	}
	return msgs[0].ID, nil
}

// Apply brings this replica up to date with the named judgments.
type Apply func(ctx context.Context, ws string, recordIDs []string) error

// Follow applies every other replica's notices after position from until
// ctx ends. A notice whose apply fails is retried after a pause.
func (f *Feed) Follow(ctx context.Context, from string, apply Apply) {
	for ctx.Err() == nil {
		res, err := f.rdb.XRead(ctx, &redis.XReadArgs{Streams: []string{Stream, from}, Count: count, Block: block}).Result()
		if errors.Is(err, redis.Nil) {
			continue
		}
		if err != nil {
			f.pause(ctx, "reading the change feed failed", err)
			continue
		}
		for _, s := range res {
			for _, m := range s.Messages {
				if err := f.applyOne(ctx, m, apply); err != nil {
					f.pause(ctx, "applying a change notice failed", err)
					break // from stays at the last applied notice
				}
				from = m.ID
			}
		}
	}
}

func (f *Feed) applyOne(ctx context.Context, m redis.XMessage, apply Apply) error {
	origin, _ := m.Values["origin"].(string)
	ws, _ := m.Values["ws"].(string)
	ids, _ := m.Values["ids"].(string)
	if origin == f.origin || ws == "" || ids == "" {
		return nil
	}
	return apply(ctx, ws, strings.Split(ids, "\n"))
}

func (f *Feed) pause(ctx context.Context, what string, err error) {
	if ctx.Err() != nil {
		return
	}
	f.logger.WarnContext(ctx, "memory: "+what, "error", err)
	t := time.NewTimer(retryAfter)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
