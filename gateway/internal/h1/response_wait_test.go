package h1

import (
	"io"
	"net"
	"sync"
	"sync/atomic"
)

// A response comparison ends when the server closes the connection or
// waits for bytes with all the client sent read and all it wrote read by
// the client. These types let a test see that second
// condition instead of waiting for a silence.

// watchedListener records the connections a server accepts by the
// client's address.
type watchedListener struct {
	net.Listener
	mu    sync.Mutex
	conns map[string]*watchedConn
}

func watch(ln net.Listener) *watchedListener {
	return &watchedListener{Listener: ln, conns: map[string]*watchedConn{}}
}

func (l *watchedListener) Accept() (net.Conn, error) {
	nc, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	c := &watchedConn{Conn: nc}
	l.mu.Lock()
	l.conns[nc.RemoteAddr().String()] = c
	l.mu.Unlock()
	return c, nil
}

// conn returns the server side of the client connection from client, or
// nil before the server accepted it.
func (l *watchedListener) conn(client string) *watchedConn {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.conns[client]
}

// watchedConn counts what the server read and wrote and whether a Read is
// under way.
type watchedConn struct {
	net.Conn
	read, written, reads atomic.Int64
	readLen              atomic.Int64 // of the Read under way
	inRead               atomic.Bool
}

func (c *watchedConn) Read(p []byte) (int, error) {
	c.reads.Add(1)
	c.readLen.Store(int64(len(p)))
	c.inRead.Store(true)
	n, err := c.Conn.Read(p)
	c.inRead.Store(false)
	c.read.Add(int64(n))
	return n, err
}

func (c *watchedConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.written.Add(int64(n))
	return n, err
}

// CloseWrite keeps the half-close both servers make before closing.
func (c *watchedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// waits reports whether the server is in a Read of c, having read sent
// bytes: it waits for bytes the client will never send, so it will write
// nothing more. One Read spanning the check is what it waits in. A 1-byte
// Read is net/http's background read while a handler runs (it watches for
// the client going away), which is not a wait: the handler may still write.
func (c *watchedConn) waits(sent int64) bool {
	n := c.reads.Load()
	if !c.inRead.Load() || c.readLen.Load() <= 1 || c.read.Load() != sent {
		return false
	}
	return c.inRead.Load() && c.reads.Load() == n
}

// countingReader counts the bytes the client read from the connection.
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}
