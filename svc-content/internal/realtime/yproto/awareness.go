package yproto

import (
	"fmt"

	"github.com/opencollab/backend/svc-content/internal/yjs/lib0"
)

// NullState is the JSON state of a client that left (its state removed).
const NullState = "null"

// AwarenessEntry is one client's entry of an awareness update: its clock
// and its state as JSON text (NullState when removed). The state is kept
// as text: the server relays it and never needs its fields.
type AwarenessEntry struct {
	ClientID uint64
	Clock    uint64
	State    string
}

// Removed reports whether the entry removes the client's state.
func (e AwarenessEntry) Removed() bool { return e.State == NullState }

// maxAwarenessEntries bounds what one update may claim, so a lying count
// cannot make the parser allocate without bound (each entry takes at
// least three bytes).
func maxAwarenessEntries(n int) uint64 { return uint64(n)/3 + 1 }

// DecodeAwareness parses an awareness update (awareness.js
// encodeAwarenessUpdate).
func DecodeAwareness(update []byte) ([]AwarenessEntry, error) {
	d := lib0.NewDecoder(update)
	n := d.ReadVarUint()
	if d.Err() == nil && n > maxAwarenessEntries(len(update)) {
		return nil, fmt.Errorf("%w: awareness update claims %d entries in %d bytes", ErrMalformed, n, len(update))
	}
	entries := make([]AwarenessEntry, 0, n)
	for i := uint64(0); i < n && d.Err() == nil; i++ {
		e := AwarenessEntry{ClientID: d.ReadVarUint(), Clock: d.ReadVarUint(), State: d.ReadVarString()}
		entries = append(entries, e)
	}
	if err := d.Err(); err != nil {
		return nil, fmt.Errorf("%w: awareness update: %w", ErrMalformed, err)
	}
	return entries, nil
}

// EncodeAwareness encodes entries as an awareness update.
func EncodeAwareness(entries []AwarenessEntry) []byte {
	var e lib0.Encoder
	e.WriteVarUint(uint64(len(entries)))
	for _, en := range entries {
		e.WriteVarUint(en.ClientID)
		e.WriteVarUint(en.Clock)
		e.WriteVarString(en.State)
	}
	return e.Buf
}
