// Package yproto is the message codec of y-protocols (npm y-protocols 1.0:
// sync.js and awareness.js), the payload both realtime protocols carry:
// the sync sub-messages (step 1 = a state vector, step 2 and update = a
// Yjs update) and awareness updates (client id, clock, JSON state).
//
// It only frames and parses; what a message means for a document is the
// realtime package's business.
package yproto

import (
	"errors"
	"fmt"

	"github.com/opencollab/backend/svc-content/internal/yjs/lib0"
)

// Sync sub-message types (y-protocols sync.js).
const (
	SyncStep1  = 0 // payload: the sender's state vector
	SyncStep2  = 1 // payload: what the receiver misses (a Yjs update)
	SyncUpdate = 2 // payload: a Yjs update
)

// ErrMalformed wraps every parse failure.
var ErrMalformed = errors.New("yproto: malformed message")

// Sync is one parsed sync sub-message.
type Sync struct {
	Type    uint64
	Payload []byte // aliases the input
}

// ReadSync reads a sync sub-message (type, then the length-prefixed
// payload) from d.
func ReadSync(d *lib0.Decoder) (Sync, error) {
	typ := d.ReadVarUint()
	payload := d.ReadVarBytes()
	if err := d.Err(); err != nil {
		return Sync{}, fmt.Errorf("%w: sync message: %w", ErrMalformed, err)
	}
	if typ > SyncUpdate {
		return Sync{}, fmt.Errorf("%w: unknown sync message type %d", ErrMalformed, typ)
	}
	return Sync{Type: typ, Payload: payload}, nil
}

// AppendSync appends a sync sub-message of type typ carrying payload.
func AppendSync(b []byte, typ uint64, payload []byte) []byte {
	e := lib0.Encoder{Buf: b}
	e.WriteVarUint(typ)
	e.WriteVarBytes(payload)
	return e.Buf
}
