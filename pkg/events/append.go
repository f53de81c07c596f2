package events

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"
	"go.mongodb.org/mongo-driver/v2/bson"
)

// epochKey holds a random name for the data set of the Redis the streams
// live in. A Redis that lost its data (an in-process Redis after a crash, a
// server without persistence after a restart) no longer has it, gets a new
// one, and every outbox event appended under the old name is appended again.
const epochKey = "events-epoch"

// xadd pipelines the epoch (created when missing) and one XADD per event
// on one connection, so the epoch names the Redis that took the entries.
// ids[i] is the entry id of events[i], "" when that XADD failed; err is
// the first failure.
func (p *Publisher) xadd(ctx context.Context, events []pending) (epoch string, ids []string, err error) {
	ids = make([]string, len(events))
	if p.rdb == nil {
		return "", ids, errors.New("no redis client")
	}
	pipe := p.rdb.Pipeline()
	epochCmd := queueEpoch(ctx, pipe)
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
	epoch = epochCmd.Val()
	for i, cmd := range cmds {
		if cmd.Err() == nil {
			ids[i] = cmd.Val()
		}
	}
	if err == nil && epoch == "" {
		err = errors.New("redis returned no epoch")
	}
	return epoch, ids, err
}

// send appends outbox events to their streams and records, in one update,
// the epoch Redis took them under and the highest entry id among them. It
// returns how many it recorded. Recording the batch's highest id for each
// event keeps an event in the outbox until its whole batch is consumed —
// a little longer than needed, never shorter — and costs one statement
// per batch instead of one per event (FerretDB v1 on SQLite deadlocked on
// a bulk command of many update statements; one multi-update is one
// statement). A crash between the XADDs and the record sends the batch
// twice; consumers dedupe by id.
func (p *Publisher) send(ctx context.Context, batch []pending) (int, error) {
	epoch, ids, sendErr := p.xadd(ctx, batch)
	if epoch == "" {
		return 0, sendErr
	}
	taken := make([]string, 0, len(batch))
	var highest entryPos
	for i, e := range batch {
		pos, ok := parsePos(ids[i])
		if !ok {
			continue
		}
		taken = append(taken, e.id)
		if highest.less(pos) {
			highest = pos
		}
	}
	if len(taken) == 0 {
		return 0, sendErr
	}
	_, err := p.outbox.UpdateMany(ctx, bson.M{"_id": bson.M{"$in": taken}},
		bson.M{"$set": bson.M{"epoch": epoch, "streamMs": highest.ms, "streamSeq": highest.seq}})
	if err != nil {
		return 0, errors.Join(sendErr, fmt.Errorf("record relayed events: %w", err))
	}
	return len(taken), sendErr
}

// parseEntryID splits a stream entry id "<ms>-<seq>".
func parseEntryID(id string) (ms, seq int64, ok bool) {
	a, b, found := strings.Cut(id, "-")
	if !found {
		return 0, 0, false
	}
	ms, err1 := strconv.ParseInt(a, 10, 64)
	seq, err2 := strconv.ParseInt(b, 10, 64)
	return ms, seq, err1 == nil && err2 == nil
}

// queueEpoch adds to pipe the creation of the epoch when it is missing and
// its read.
func queueEpoch(ctx context.Context, pipe redis.Pipeliner) *redis.StringCmd {
	pipe.SetNX(ctx, epochKey, rand.Text(), 0)
	return pipe.Get(ctx, epochKey)
}
