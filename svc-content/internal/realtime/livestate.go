package realtime

import (
	"context"
	"encoding/json"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/opencollab/backend/svc-content/internal/yjs/lib0"
)

// Live state broadcast (/v2/livestate/broadcast): a customer backend's
// message reaches every client connected to a document, whatever its
// editor, on every replica.
//
//   - Hocuspocus clients get a "stateless" message (the provider's
//     onStateless) on each document they attached.
//   - y-websocket clients get a message of outer type YWSLiveState with
//     the payload as a var string. Stock y-websocket ignores a type it has
//     no handler for (it logs "Unable to compute message"); an application
//     registers provider.messageHandlers[YWSLiveState] to receive it.
//
// The payload is JSON: {"type":"liveState","liveStateDataId","data","merge"}.
// Replicas hear of a broadcast on one Redis channel; each delivers to its
// own rooms of the document.

// YWSLiveState is the y-websocket message type of a live state broadcast.
const YWSLiveState = 100

// liveStateChannel carries broadcasts between replicas.
const liveStateChannel = "rt:livestate"

type liveStateMessage struct {
	Replica   string `json:"r"`
	Workspace string `json:"w"`
	Org       string `json:"o"`
	Doc       string `json:"d"`
	Payload   string `json:"p"`
}

// BroadcastLiveState delivers payload to the clients of document doc here
// and publishes it to the other replicas. It reports how many clients of
// this replica got it.
func (h *Hub) BroadcastLiveState(ctx context.Context, ws, org, doc, payload string) (int, error) {
	n := h.deliverLiveState(ws, org, doc, payload)
	if h.fanout == nil {
		return n, nil
	}
	msg, err := json.Marshal(liveStateMessage{Replica: h.replica, Workspace: ws, Org: org, Doc: doc, Payload: payload})
	if err != nil {
		return n, err
	}
	return n, h.fanout.rdb.Publish(ctx, liveStateChannel, msg).Err()
}

// FollowLiveState delivers the broadcasts of other replicas until ctx
// ends (pub/sub: a replica that is down misses what it could not deliver
// anyway).
func (h *Hub) FollowLiveState(ctx context.Context, rdb *redis.Client) {
	for ctx.Err() == nil {
		ps := rdb.Subscribe(ctx, liveStateChannel)
		// The channel ends only when ps is closed: close it with ctx.
		stop := context.AfterFunc(ctx, func() { _ = ps.Close() })
		for m := range ps.Channel() {
			var msg liveStateMessage
			if json.Unmarshal([]byte(m.Payload), &msg) == nil && msg.Replica != h.replica {
				h.deliverLiveState(msg.Workspace, msg.Org, msg.Doc, msg.Payload)
			}
		}
		stop()
		_ = ps.Close()
		if ctx.Err() == nil {
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
		}
	}
}

func (h *Hub) deliverLiveState(ws, org, doc, payload string) int {
	n := 0
	for _, r := range h.allRooms() {
		if r.key.Workspace != ws || r.key.Org != org || r.key.Doc != doc {
			continue
		}
		r.mu.Lock()
		for m := range r.members {
			if frame := liveStateFrame(m.framer, payload); frame != nil {
				m.send(frame)
				n++
			}
		}
		r.mu.Unlock()
	}
	return n
}

func liveStateFrame(f framer, payload string) []byte {
	if _, yws := f.(ywsFramer); yws {
		e := lib0.Encoder{Buf: make([]byte, 0, len(payload)+8)}
		e.WriteVarUint(YWSLiveState)
		e.WriteVarString(payload)
		return e.Buf
	}
	return f.stateless(payload)
}
