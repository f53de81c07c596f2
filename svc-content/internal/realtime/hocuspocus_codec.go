package realtime

import (
	"unicode/utf8"

	"github.com/opencollab/backend/svc-content/internal/realtime/yproto"
	"github.com/opencollab/backend/svc-content/internal/yjs/lib0"
)

// Hocuspocus 4 message types (@hocuspocus/common types.ts). Every message
// but Ping/Pong starts with the document's address: its name, or
// "name\0sessionId" for session-aware providers.
const (
	hpSync               = 0
	hpAwareness          = 1
	hpAuth               = 2
	hpQueryAwareness     = 3
	hpSyncReply          = 4 // a sync that does not ask for the server's step 1
	hpStateless          = 5
	hpBroadcastStateless = 6 // server-internal; refused from clients
	hpClose              = 7
	hpSyncStatus         = 8
	hpPing               = 9
	hpPong               = 10
)

// Auth sub-types (@hocuspocus/common auth.ts).
const (
	hpAuthToken         = 0
	hpAuthDenied        = 1
	hpAuthAuthenticated = 2
)

// Scopes of the Authenticated message.
const (
	hpScopeReadWrite = "read-write"
	hpScopeReadOnly  = "readonly"
)

// hpFramer frames Hocuspocus messages for one document address.
type hpFramer struct {
	addr string
	// saved is the acknowledgement of a stored update, framed once: it
	// is the same for every update of the session.
	saved []byte
}

// newHPFramer is the framer of a session at addr.
func newHPFramer(addr string) hpFramer {
	f := hpFramer{addr: addr}
	f.saved = f.syncStatus(true)
	return f
}

func (f hpFramer) header(typ uint64, extra int) lib0.Encoder {
	e := lib0.Encoder{Buf: make([]byte, 0, len(f.addr)+extra+8)}
	e.WriteVarString(f.addr)
	e.WriteVarUint(typ)
	return e
}

func (f hpFramer) relay(o *outbound) []byte {
	if o.hp == nil || o.hpAddr != f.addr {
		if o.awareness {
			e := f.header(hpAwareness, len(o.body))
			e.WriteVarBytes(o.body)
			o.hp = e.Buf
		} else {
			e := f.header(hpSync, len(o.body))
			o.hp = yproto.AppendSync(e.Buf, yproto.SyncUpdate, o.body)
		}
		o.hpAddr = f.addr
	}
	return o.hp
}

func (f hpFramer) syncStep1(sv []byte) []byte {
	e := f.header(hpSync, len(sv))
	return yproto.AppendSync(e.Buf, yproto.SyncStep1, sv)
}

func (f hpFramer) syncStep2(u []byte) []byte {
	e := f.header(hpSync, len(u))
	return yproto.AppendSync(e.Buf, yproto.SyncStep2, u)
}

func (f hpFramer) syncStatus(saved bool) []byte {
	if saved && f.saved != nil {
		return f.saved // shared: queued messages are never changed
	}
	e := f.header(hpSyncStatus, 1)
	if saved {
		e.WriteVarUint(1)
	} else {
		e.WriteVarUint(0)
	}
	return e.Buf
}

func (f hpFramer) stateless(payload string) []byte {
	e := f.header(hpStateless, len(payload))
	e.WriteVarString(payload)
	return e.Buf
}

func (f hpFramer) authenticated(readOnly bool) []byte {
	e := f.header(hpAuth, 12)
	e.WriteVarUint(hpAuthAuthenticated)
	if readOnly {
		e.WriteVarString(hpScopeReadOnly)
	} else {
		e.WriteVarString(hpScopeReadWrite)
	}
	return e.Buf
}

func (f hpFramer) denied(reason string) []byte {
	e := f.header(hpAuth, len(reason))
	e.WriteVarUint(hpAuthDenied)
	e.WriteVarString(reason)
	return e.Buf
}

func (f hpFramer) closed(reason string) []byte {
	e := f.header(hpClose, len(reason))
	e.WriteVarString(reason)
	return e.Buf
}

// hpMessage is a parsed client message: its address, type and the rest.
// It is read in place, with no allocation: every update a client sends
// is one.
type hpMessage struct {
	addr []byte // within the message
	typ  uint64
	body lib0.Decoder
}

func readHPMessage(msg []byte) (hpMessage, error) {
	m := hpMessage{body: *lib0.NewDecoder(msg)}
	m.addr = m.body.ReadVarBytes()
	if !utf8.Valid(m.addr) { // a string, as ReadVarString checks
		m.body.Fail(lib0.ErrInvalidUTF8)
	}
	m.typ = m.body.ReadVarUint()
	return m, m.body.Err()
}

// readToken reads an Auth message's token (the provider version that may
// follow is ignored); ok is false for other auth sub-types.
func (m hpMessage) readToken() (token string, ok bool, err error) {
	sub := m.body.ReadVarUint()
	if sub != hpAuthToken {
		return "", false, m.body.Err()
	}
	token = m.body.ReadVarString()
	return token, true, m.body.Err()
}
