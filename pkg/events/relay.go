package events

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// RunRelay keeps the outbox and the stream in step, at start and then every
// RelayInterval, until ctx is done. Each pass appends the events the
// current Redis does not hold — never taken (Redis was down), or taken by a
// Redis that has since lost its data — oldest first, then deletes the
// events every consumer group of the stream has acknowledged. A crash (or a
// second replica relaying at once) between an XADD and its record sends an
// event twice; consumers dedupe by event id, which is what makes that safe.
func (p *Publisher) RunRelay(ctx context.Context) {
	if p.outbox == nil {
		return
	}
	ticker := time.NewTicker(p.opts.RelayInterval)
	defer ticker.Stop()
	for {
		p.drainOutbox(ctx)
		if err := p.prune(ctx); err != nil && ctx.Err() == nil {
			p.logger.WarnContext(ctx, "events: outbox prune failed, retrying later", "stream", p.stream, "error", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
	}
}

// drainOutbox relays batches until nothing is left to send or a pass fails.
func (p *Publisher) drainOutbox(ctx context.Context) {
	for ctx.Err() == nil {
		moved, full, err := p.relayOnce(ctx)
		if err != nil {
			if ctx.Err() == nil {
				p.logger.WarnContext(ctx, "events: outbox relay failed, retrying later", "error", err)
			}
			return
		}
		if !full || moved == 0 {
			return
		}
	}
}

// relayOnce sends up to RelayBatch outbox events the current Redis does not
// hold. It returns how many it moved and whether the batch was full.
func (p *Publisher) relayOnce(ctx context.Context) (moved int, full bool, err error) {
	epoch, err := p.epoch(ctx)
	if err != nil {
		return 0, false, fmt.Errorf("read redis epoch: %w", err)
	}
	cur, err := p.outbox.Find(ctx, bson.M{
		"stream":    p.stream,
		"epoch":     bson.M{"$ne": epoch},
		"createdAt": bson.M{"$lt": time.Now().Add(-p.opts.RelayGrace)},
	}, options.Find().
		SetSort(bson.D{{Key: "createdAt", Value: 1}, {Key: "_id", Value: 1}}).
		SetLimit(int64(p.opts.RelayBatch)).
		SetProjection(bson.M{"stream": 1, "event": 1}))
	if err != nil {
		return 0, false, fmt.Errorf("read outbox: %w", err)
	}
	var docs []outboxDoc
	if err := cur.All(ctx, &docs); err != nil {
		return 0, false, fmt.Errorf("read outbox: %w", err)
	}
	if len(docs) == 0 {
		return 0, false, nil
	}
	batch := make([]pending, len(docs))
	for i, d := range docs {
		batch[i] = pending{id: d.ID, stream: d.Stream, payload: d.Event}
	}
	moved, err = p.send(ctx, batch)
	if err != nil {
		return moved, false, fmt.Errorf("relay to redis: %w", err)
	}
	return moved, len(docs) == p.opts.RelayBatch, nil
}

// epoch returns the current Redis's epoch, creating it when missing.
func (p *Publisher) epoch(ctx context.Context) (string, error) {
	pipe := p.rdb.Pipeline()
	get := queueEpoch(ctx, pipe)
	if _, err := pipe.Exec(ctx); err != nil {
		return "", err
	}
	return get.Val(), nil
}
