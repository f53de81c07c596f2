package events

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
	"go.mongodb.org/mongo-driver/v2/bson"
)

// entryPos is a stream entry id, ordered as Redis orders them.
type entryPos struct{ ms, seq int64 }

func (a entryPos) less(b entryPos) bool { return a.ms < b.ms || (a.ms == b.ms && a.seq < b.seq) }

// prune deletes the outbox events that every consumer group of the stream
// has acknowledged in the current Redis: an acknowledged event's effect is
// stored by its consumer, so nothing needs it any more. Events of a stream
// no group reads are kept OrphanRetention after they were relayed, in case
// a consumer is only starting.
//
// A group has processed every entry below its oldest pending entry that is
// not after its last delivered one. The epoch is read before and after the
// groups, so a Redis that restarted meanwhile prunes nothing.
func (p *Publisher) prune(ctx context.Context) error {
	epoch, groups, err := p.groups(ctx)
	if err != nil || epoch == "" {
		return err
	}
	relayed := bson.M{"stream": p.stream, "epoch": epoch}
	if len(groups) == 0 {
		relayed["createdAt"] = bson.M{"$lt": time.Now().Add(-p.opts.OrphanRetention)}
		_, err := p.outbox.DeleteMany(ctx, relayed)
		return err
	}
	bound, err := p.consumedBelow(ctx, groups)
	if err != nil {
		return err
	}
	if again, err := p.rdb.Get(ctx, epochKey).Result(); err != nil || again != epoch {
		return err // a restarted Redis: its groups say nothing of these events
	}
	relayed["$or"] = bson.A{
		bson.M{"streamMs": bson.M{"$lt": bound.ms}},
		bson.M{"streamMs": bound.ms, "streamSeq": bson.M{"$lt": bound.seq}},
	}
	if _, err := p.outbox.DeleteMany(ctx, relayed); err != nil {
		return fmt.Errorf("delete processed events: %w", err)
	}
	return nil
}

// groups reads the epoch and the stream's consumer groups in one pipeline;
// epoch is "" when Redis has none yet (nothing was relayed to it).
func (p *Publisher) groups(ctx context.Context) (string, []redis.XInfoGroup, error) {
	pipe := p.rdb.Pipeline()
	get := pipe.Get(ctx, epochKey)
	info := pipe.XInfoGroups(ctx, p.stream)
	_, _ = pipe.Exec(ctx)
	epoch, err := get.Result()
	if errors.Is(err, redis.Nil) {
		return "", nil, nil
	}
	if err != nil {
		return "", nil, err
	}
	groups, err := info.Result()
	if err != nil && strings.Contains(strings.ToLower(err.Error()), "no such key") {
		return "", nil, nil // no stream: nothing relayed here yet
	}
	return epoch, groups, err
}

// consumedBelow is the position below which every group has acknowledged
// every entry.
func (p *Publisher) consumedBelow(ctx context.Context, groups []redis.XInfoGroup) (entryPos, error) {
	var bound entryPos
	for i, g := range groups {
		last, ok := parsePos(g.LastDeliveredID)
		if !ok {
			return entryPos{}, fmt.Errorf("group %s: last delivered id %q", g.Name, g.LastDeliveredID)
		}
		b := entryPos{last.ms, last.seq + 1}
		if g.Pending > 0 {
			pend, err := p.rdb.XPending(ctx, p.stream, g.Name).Result()
			if err != nil {
				return entryPos{}, fmt.Errorf("pending of group %s: %w", g.Name, err)
			}
			if low, ok := parsePos(pend.Lower); ok && low.less(b) {
				b = low
			}
		}
		if i == 0 || b.less(bound) {
			bound = b
		}
	}
	return bound, nil
}

// parsePos reads an entry id; "0" is a group's last delivered id before it
// has read anything (created at the start of the stream).
func parsePos(id string) (entryPos, bool) {
	if id == "0" {
		return entryPos{}, true
	}
	ms, seq, ok := parseEntryID(id)
	return entryPos{ms, seq}, ok
}
