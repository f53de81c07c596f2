package gateway

import (
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"sync/atomic"
	"unsafe"

	"github.com/opencollab/backend/pkg/internalauth"
)

// maxRequestIDLen bounds a client-chosen request id.
const maxRequestIDLen = 128

// requestIDs makes request ids: a random per-process prefix and a counter,
// unique across replicas without a random read per request.
type requestIDs struct {
	prefix string
	n      atomic.Uint64
}

func newRequestIDs() *requestIDs {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return &requestIDs{prefix: hex.EncodeToString(b[:])}
}

// idSlot is the request's own memory for a new id: its bytes and the
// header's value slice.
type idSlot struct {
	buf  [48]byte // 16 hex digits, '-', at most 13 base-36 digits
	vals [1]string
}

// ensure keeps the client's X-Request-Id when it is a sane token, else
// makes a new one, and returns the id. A new id is written into slot, part
// of the request's call, and the string refers to those bytes: they are
// written once and never changed, and the string keeps the call alive, so
// it is as immutable as any string without a copy of its own.
//
// The id is passed along, not kept in r.Header: on h1 a field set in the
// request's and the answer's header maps cost two map writes, two clears
// and a map iteration per request. Only when the fields are r.Header
// (net/http, or a head net/http's parser read) does r.Header get a new
// id, since the upstream head is then written from the map.
func (g *requestIDs) ensure(f *clientFields, slot *idSlot) string {
	if v, n := f.first(internalauth.HeaderRequestID); n == 1 && saneRequestID(v) {
		return v
	}
	b := append(slot.buf[:0], g.prefix...)
	b = append(b, '-')
	b = strconv.AppendUint(b, g.n.Add(1), 36)
	id := unsafe.String(&slot.buf[0], len(b))
	if !f.listed {
		slot.vals[0] = id
		f.h[internalauth.HeaderRequestID] = slot.vals[:]
	}
	return id
}

// saneRequestID accepts 1..128 characters of [A-Za-z0-9._:-], enough for
// UUIDs, hex and most tracing ids, and nothing that could break a log line.
func saneRequestID(s string) bool {
	if len(s) == 0 || len(s) > maxRequestIDLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '.', c == '_', c == ':', c == '-':
		default:
			return false
		}
	}
	return true
}
