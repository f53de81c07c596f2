package realtime

import (
	"bufio"
	"encoding/binary"
	"errors"
	"net"
	"net/http"
	"os"
	"sync"
	"syscall"
	"time"
)

// batchConn is the socket under a client's WebSocket. While the send
// queue is flushed it gathers the data frames (a relay, the
// acknowledgements) and the control frames written meanwhile (a ping, a
// pong: writeControl) and writes them with one system call instead of one
// each. Frames stay whole: each is added under the lock. The gathering
// buffer is pooled and held only during a flush.
type batchConn struct {
	net.Conn
	mu  sync.Mutex
	buf *[]byte // non-nil while gathering
	// early are the client's bytes the HTTP server had read past the
	// upgrade request (a first frame sent right behind it): read before
	// the socket's own, then dropped.
	early []byte
	// closeSent: the close frame is out; no control frame follows it.
	closeSent bool
}

// batchFlushAt is how much a flush gathers before it writes.
const batchFlushAt = 64 << 10

var batchBufs = sync.Pool{New: func() any { b := make([]byte, 0, 4<<10); return &b }}

func (b *batchConn) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.buf != nil {
		*b.buf = append(*b.buf, p...)
		return len(p), nil
	}
	return b.Conn.Write(p)
}

// gatherFrame adds a binary data frame of payload to the gathered bytes
// and returns how many wait.
func (b *batchConn) gatherFrame(payload []byte) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.appendFrameLocked(payload)
}

func (b *batchConn) appendFrameLocked(payload []byte) int {
	if b.buf == nil {
		b.buf = batchBufs.Get().(*[]byte)
	}
	*b.buf = appendFrameHeader(*b.buf, len(payload))
	*b.buf = append(*b.buf, payload...)
	return len(*b.buf)
}

// writeNow writes binary data frames of payloads with one non-blocking
// system call from the calling goroutine (a relay, under its room's
// lock; a commit release): a delivery then waits for no writer goroutine
// to be scheduled. all: the socket took every frame. Otherwise, when
// taken, the rest waits gathered for the writer goroutine's flush (which
// reports any error); not taken: another write holds the socket, and
// the caller must not wait for it.
func (b *batchConn) writeNow(raw syscall.RawConn, payloads [][]byte, timeout time.Duration) (taken, all bool) {
	if !b.mu.TryLock() {
		return false, false
	}
	defer b.mu.Unlock()
	if b.buf != nil {
		for _, p := range payloads {
			b.appendFrameLocked(p)
		}
		return true, false
	}
	buf := batchBufs.Get().(*[]byte)
	*buf = (*buf)[:0]
	for _, p := range payloads {
		*buf = appendFrameHeader(*buf, len(p))
		*buf = append(*buf, p...)
	}
	n, err := writeSome(raw, *buf)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		// The deadline of an earlier blocking write (a flush, a ping)
		// passed; this write does not wait, but a passed deadline fails
		// it. A fresh one keeps the next blocking write bounded.
		_ = b.Conn.SetWriteDeadline(time.Now().Add(timeout))
		n, _ = writeSome(raw, *buf)
	}
	if n == len(*buf) {
		putBatchBuf(buf)
		return true, true
	}
	*buf = (*buf)[:copy(*buf, (*buf)[n:])]
	b.buf = buf
	return true, false
}

// writeFrame writes a binary data frame of payload at once (a large
// message: its header and payload in one writev, not copied). The lock
// keeps a control frame from landing between the two.
func (b *batchConn) writeFrame(payload []byte, deadline time.Time) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	_ = b.Conn.SetWriteDeadline(deadline)
	bufs := net.Buffers{appendFrameHeader(make([]byte, 0, maxHeader), len(payload)), payload}
	_, err := bufs.WriteTo(b.Conn)
	return err
}

// errCloseSent refuses a control frame after the close frame.
var errCloseSent = errors.New("websocket: close frame already sent")

// writeControl writes a control frame (close, ping, pong; its payload
// at most 125 bytes) with one Write, so it lands whole between data
// frames, gathered behind them while a flush runs. The WebSocket
// library's connection, which wrote them before, is dropped after the
// handshake: it held some 800 bytes per idle connection.
func (b *batchConn) writeControl(op byte, payload []byte, deadline time.Time) error {
	var frame [2 + maxControlPayload]byte
	if len(payload) > maxControlPayload {
		return errors.New("websocket: control frame payload over 125 bytes")
	}
	frame[0], frame[1] = 0x80|op, byte(len(payload))
	n := 2 + copy(frame[2:], payload)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closeSent {
		return errCloseSent
	}
	b.closeSent = op == opClose
	if b.buf != nil {
		*b.buf = append(*b.buf, frame[:n]...)
		return nil
	}
	_ = b.Conn.SetWriteDeadline(deadline)
	_, err := b.Conn.Write(frame[:n])
	return err
}

// maxControlPayload is the largest payload of a control frame (RFC 6455
// §5.5).
const maxControlPayload = 125

// appendFrameHeader appends the header of a final, unmasked binary frame
// of n payload bytes (a server's frame, RFC 6455 §5.2).
func appendFrameHeader(dst []byte, n int) []byte {
	const finBinary = 0x80 | opBinary
	switch {
	case n < 126:
		return append(dst, finBinary, byte(n))
	case n < 1<<16:
		return append(dst, finBinary, 126, byte(n>>8), byte(n))
	}
	return binary.BigEndian.AppendUint64(append(dst, finBinary, 127), uint64(n))
}

// putBatchBuf pools buf unless a large write grew it.
func putBatchBuf(buf *[]byte) {
	if cap(*buf) <= batchFlushAt*2 {
		*buf = (*buf)[:0]
		batchBufs.Put(buf)
	}
}

// gathering reports whether bytes wait for a flush.
func (b *batchConn) gathering() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf != nil
}

// flush writes what was gathered and stops gathering. Frames written
// meanwhile by other goroutines wait for it, so the order stays.
func (b *batchConn) flush(deadline time.Time) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	buf := b.buf
	b.buf = nil
	if buf == nil {
		return nil
	}
	defer putBatchBuf(buf)
	if len(*buf) == 0 {
		return nil
	}
	_ = b.Conn.SetWriteDeadline(deadline)
	_, err := b.Conn.Write(*buf)
	return err
}

// batchHijacker hands the WebSocket upgrader a batchConn over the hijacked
// connection. Frames are read from the socket (see reading), not from the
// server's reader, so the bytes that reader holds already are moved to the
// batchConn: the upgrader would refuse them ("client sent data before
// handshake is complete"), and a client may pipeline its first frame
// behind the upgrade request.
type batchHijacker struct{ http.ResponseWriter }

func (h batchHijacker) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	c, brw, err := http.NewResponseController(h.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	bc := &batchConn{Conn: c}
	if n := brw.Reader.Buffered(); n > 0 {
		early, _ := brw.Reader.Peek(n)
		bc.early = append([]byte(nil), early...)
		_, _ = brw.Reader.Discard(n)
	}
	return bc, brw, nil
}
