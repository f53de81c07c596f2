package realtime

import (
	"context"
	"fmt"
	"math"
)

// StoredDocument returns the document of key as this replica holds it, as
// one Yjs update, once everything in it is stored: the edit event renders
// it instead of reading the store. ok is false when the document is not
// loaded here (or failed); the caller reads the store then.
func (h *Hub) StoredDocument(ctx context.Context, key DocKey) (update []byte, ok bool, err error) {
	r := h.roomByKey(key)
	if r == nil || r.loadFailed() {
		return nil, false, nil
	}
	select {
	case <-r.ready:
	default:
		return nil, false, nil
	}
	r.mu.Lock()
	if r.broken {
		r.mu.Unlock()
		return nil, false, nil
	}
	update, err = r.doc.EncodeStateAsUpdate(nil)
	applied := r.received
	r.mu.Unlock()
	if err != nil {
		return nil, false, fmt.Errorf("encode document: %w", err)
	}
	if !r.waitStored(ctx, applied) {
		return nil, false, ctx.Err()
	}
	return update, true, nil
}

// waitStored waits until the first n updates members sent are stored;
// false when the room failed (they may never be) or ctx ended.
func (r *room) waitStored(ctx context.Context, n uint64) bool {
	return r.waitForStore(ctx, math.MaxInt, n)
}
