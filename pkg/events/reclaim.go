package events

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// maxClaimRounds bounds one reclaim pass per stream (rounds of Count
// messages) so new messages are not starved behind a large backlog.
const maxClaimRounds = 10

// reclaim takes over messages that have been pending longer than MinIdle —
// their handler failed, or their consumer died before acknowledging — and
// handles them again.
func (c *Consumer) reclaim(ctx context.Context) {
	for _, s := range c.streams {
		start := "0-0"
		for range maxClaimRounds {
			msgs, next, err := c.rdb.XAutoClaim(ctx, &redis.XAutoClaimArgs{
				Stream: s, Group: c.group, Consumer: c.name,
				MinIdle: c.opts.MinIdle, Start: start, Count: c.opts.Count,
			}).Result()
			if err != nil {
				if ctx.Err() == nil {
					c.logger.WarnContext(ctx, "events: reclaim failed", "stream", s, "error", err)
				}
				break
			}
			for _, m := range msgs {
				if ctx.Err() != nil {
					return
				}
				c.retry(ctx, s, m)
			}
			if next == "0-0" || next == "" {
				break
			}
			start = next
		}
	}
}

// retry handles a reclaimed message unless it has been delivered too often.
//
// Poison messages: an event whose handler keeps failing would otherwise be
// reclaimed forever. After MaxDeliveries handler attempts it is logged as an
// error (with its id, for manual replay from the stream) and acknowledged, so
// the group moves on.
func (c *Consumer) retry(ctx context.Context, stream string, m redis.XMessage) {
	if m.ID == "" { // trimmed from the stream while pending
		return
	}
	deliveries, err := c.deliveries(ctx, stream, m.ID)
	if err != nil {
		c.logger.WarnContext(ctx, "events: read delivery count failed", "stream", stream, "messageId", m.ID, "error", err)
		return
	}
	if deliveries == 0 { // acknowledged meanwhile by another consumer
		return
	}
	// XAUTOCLAIM counted this delivery already, so deliveries-1 handler
	// attempts have failed before.
	if deliveries > c.opts.MaxDeliveries {
		e, _ := decodeMessage(m)
		c.logger.ErrorContext(ctx, "events: giving up on an event after repeated handler failures",
			"stream", stream, "messageId", m.ID, "eventId", e.ID, "type", e.Type, "attempts", deliveries-1)
		c.ack(ctx, stream, m.ID)
		return
	}
	c.handle(ctx, stream, m)
}

// deliveries is the group's delivery count of message id, 0 when it is no
// longer pending.
func (c *Consumer) deliveries(ctx context.Context, stream, id string) (int64, error) {
	p, err := c.rdb.XPendingExt(ctx, &redis.XPendingExtArgs{
		Stream: stream, Group: c.group, Start: id, End: id, Count: 1,
	}).Result()
	if err != nil {
		return 0, err
	}
	if len(p) == 0 {
		return 0, nil
	}
	return p[0].RetryCount, nil
}
