package realtime

import (
	"github.com/opencollab/backend/svc-content/internal/realtime/yproto"
	"github.com/opencollab/backend/svc-content/internal/yjs/lib0"
)

// Outer message types of the y-websocket protocol (y-websocket.js); the
// Hocuspocus types are in hocuspocus.go.
const (
	ywsSync           = 0
	ywsAwareness      = 1
	ywsAuth           = 2
	ywsQueryAwareness = 3
)

// outbound is one message a room sends to many members: each protocol
// frames it once, however many members speak that protocol.
type outbound struct {
	awareness bool // body is an awareness update, else a Yjs update
	body      []byte

	yws    []byte // y-websocket framing, made on first use
	hpAddr string // the last Hocuspocus address framed, and its bytes
	hp     []byte
}

// framer writes the messages of one protocol for one member.
type framer interface {
	relay(o *outbound) []byte
	syncStep1(sv []byte) []byte
	syncStep2(update []byte) []byte
	// syncStatus acknowledges a received update (nil: the protocol has no
	// acknowledgement).
	syncStatus(saved bool) []byte
	// stateless frames a Hocuspocus stateless payload (nil: the protocol
	// has none).
	stateless(payload string) []byte
}

// ywsFramer frames y-websocket messages.
type ywsFramer struct{}

func (ywsFramer) relay(o *outbound) []byte {
	if o.yws == nil {
		if o.awareness {
			o.yws = ywsAwarenessMessage(o.body)
		} else {
			o.yws = ywsSyncMessage(yproto.SyncUpdate, o.body)
		}
	}
	return o.yws
}

func (ywsFramer) syncStep1(sv []byte) []byte   { return ywsSyncMessage(yproto.SyncStep1, sv) }
func (ywsFramer) syncStep2(u []byte) []byte    { return ywsSyncMessage(yproto.SyncStep2, u) }
func (ywsFramer) syncStatus(saved bool) []byte { return nil }
func (ywsFramer) stateless(string) []byte      { return nil }

func ywsSyncMessage(typ uint64, payload []byte) []byte {
	b := make([]byte, 0, len(payload)+8)
	b = append(b, ywsSync)
	return yproto.AppendSync(b, typ, payload)
}

func ywsAwarenessMessage(update []byte) []byte {
	e := lib0.Encoder{Buf: make([]byte, 0, len(update)+6)}
	e.WriteVarUint(ywsAwareness)
	e.WriteVarBytes(update)
	return e.Buf
}
