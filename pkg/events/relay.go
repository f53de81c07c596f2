package events

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// RunRelay moves outbox events to their streams, at start and then every
// RelayInterval, until ctx is done. Each pass sends the oldest documents
// first and deletes them once Redis took them. A crash (or a second replica
// relaying at once) between the XADD and the delete sends an event twice;
// consumers dedupe by event id, which is what makes that safe.
func (p *Publisher) RunRelay(ctx context.Context) {
	if p.outbox == nil {
		return
	}
	ticker := time.NewTicker(p.opts.RelayInterval)
	defer ticker.Stop()
	for {
		p.drainOutbox(ctx)
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
	}
}

// drainOutbox relays batches until the outbox is empty or a pass fails.
func (p *Publisher) drainOutbox(ctx context.Context) {
	for ctx.Err() == nil {
		moved, err := p.relayOnce(ctx)
		if err != nil {
			if ctx.Err() == nil {
				p.logger.WarnContext(ctx, "events: outbox relay failed, retrying later", "error", err)
			}
			return
		}
		if moved < p.opts.RelayBatch {
			return
		}
	}
}

// relayOnce sends up to RelayBatch outbox events and deletes the ones Redis
// took. It returns how many it moved.
func (p *Publisher) relayOnce(ctx context.Context) (int, error) {
	cur, err := p.outbox.Find(ctx, bson.M{}, options.Find().
		SetSort(bson.D{{Key: "createdAt", Value: 1}, {Key: "_id", Value: 1}}).
		SetLimit(int64(p.opts.RelayBatch)))
	if err != nil {
		return 0, fmt.Errorf("read outbox: %w", err)
	}
	var docs []outboxDoc
	if err := cur.All(ctx, &docs); err != nil {
		return 0, fmt.Errorf("read outbox: %w", err)
	}
	if len(docs) == 0 {
		return 0, nil
	}
	batch := make([]pending, len(docs))
	for i, d := range docs {
		batch[i] = pending{id: d.ID, stream: d.Stream, payload: d.Event}
	}
	failed, sendErr := p.xadd(ctx, batch)
	sent := sentIDs(batch, failed)
	if len(sent) > 0 {
		if _, err := p.outbox.DeleteMany(ctx, bson.M{"_id": bson.M{"$in": sent}}); err != nil {
			return 0, fmt.Errorf("delete relayed events: %w", err)
		}
	}
	if sendErr != nil {
		return len(sent), fmt.Errorf("relay to redis: %w", sendErr)
	}
	return len(sent), nil
}

// sentIDs are the ids of batch that are not in failed.
func sentIDs(batch, failed []pending) []string {
	bad := make(map[string]bool, len(failed))
	for _, f := range failed {
		bad[f.id] = true
	}
	ids := make([]string, 0, len(batch))
	for _, e := range batch {
		if !bad[e.id] {
			ids = append(ids, e.id)
		}
	}
	return ids
}
