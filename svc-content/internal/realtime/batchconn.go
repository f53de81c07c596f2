package realtime

import (
	"bufio"
	"net"
	"net/http"
	"sync"
	"time"
)

// batchConn is the socket under a client's WebSocket. While the send
// queue is flushed it gathers the frames the WebSocket library writes
// (a relay, the acknowledgements, a ping that came in between) and writes
// them with one system call instead of one each. Frames stay whole: the
// library writes each frame with one Write under its own write lock. The
// gathering buffer is pooled and held only during a flush.
type batchConn struct {
	net.Conn
	mu  sync.Mutex
	buf *[]byte // non-nil while gathering
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

// gather starts collecting frames.
func (b *batchConn) gather() {
	b.mu.Lock()
	if b.buf == nil {
		b.buf = batchBufs.Get().(*[]byte)
	}
	b.mu.Unlock()
}

// gathered is how many bytes wait.
func (b *batchConn) gathered() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.buf == nil {
		return 0
	}
	return len(*b.buf)
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
	defer func() {
		if cap(*buf) <= batchFlushAt*2 {
			*buf = (*buf)[:0]
			batchBufs.Put(buf)
		}
	}()
	if len(*buf) == 0 {
		return nil
	}
	_ = b.Conn.SetWriteDeadline(deadline)
	_, err := b.Conn.Write(*buf)
	return err
}

// batchHijacker hands the WebSocket upgrader a batchConn over the hijacked
// connection.
type batchHijacker struct{ http.ResponseWriter }

func (h batchHijacker) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	c, brw, err := http.NewResponseController(h.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	return &batchConn{Conn: c}, brw, nil
}
