package gateway

import (
	"bufio"
	"context"
	"crypto/tls"
	"net"
	"sync"
	"time"
)

// Upstream connection pool settings. Services close idle connections after
// 120 s (pkg/server); ours are dropped after 90 s, so a pooled connection
// is almost never one the service has already closed.
const (
	upstreamMaxIdle     = 1024
	upstreamIdleTimeout = 90 * time.Second
	upstreamDialTimeout = 5 * time.Second
	upstreamReadBuffer  = 16 << 10
)

// upConn is one keep-alive HTTP/1.1 connection to a service.
type upConn struct {
	net.Conn
	br       *bufio.Reader
	src      *upReader // br's source
	lastUsed time.Time
	// reused is set once the connection has carried a request: a failure
	// before any answer on a reused connection may be a close racing our
	// request, which is worth one retry on a fresh connection.
	reused bool
}

// connPool keeps idle connections to one service, most recently used last
// (a hot connection is warm in every cache; cold ones age out at the front).
// It replaces http.Transport on the hot path: a request is written and its
// answer read by the handler's own goroutine, with no hand-off to a
// connection's reader and writer goroutines.
type connPool struct {
	addr   string
	tlsCfg *tls.Config // nil: plain HTTP
	// dialTCP is net.Dialer.DialContext; tests wrap it to watch the wire.
	dialTCP func(ctx context.Context, network, addr string) (net.Conn, error)

	mu     sync.Mutex
	idle   []*upConn
	closed bool
}

func newConnPool(addr string, tlsCfg *tls.Config) *connPool {
	d := &net.Dialer{Timeout: upstreamDialTimeout, KeepAlive: 30 * time.Second}
	return &connPool{addr: addr, tlsCfg: tlsCfg, dialTCP: d.DialContext}
}

// get returns an idle connection or dials a new one. now is the
// request's start: a clock read per request is saved, and a connection
// looks idle for a few microseconds less at most.
func (p *connPool) get(ctx context.Context, now time.Time) (*upConn, error) {
	p.mu.Lock()
	for n := len(p.idle); n > 0; n = len(p.idle) {
		c := p.idle[n-1]
		p.idle[n-1] = nil
		p.idle = p.idle[:n-1]
		if now.Sub(c.lastUsed) < upstreamIdleTimeout {
			p.mu.Unlock()
			return c, nil
		}
		_ = c.Close()
	}
	p.mu.Unlock()
	return p.dial(ctx)
}

func (p *connPool) dial(ctx context.Context) (*upConn, error) {
	c, err := p.dialTCP(ctx, "tcp", p.addr)
	if err != nil {
		return nil, err
	}
	if p.tlsCfg != nil {
		tc := tls.Client(c, p.tlsCfg)
		if err := tc.HandshakeContext(ctx); err != nil {
			_ = c.Close()
			return nil, err
		}
		c = tc
	}
	src := newUpReader(c)
	return &upConn{Conn: c, br: bufio.NewReaderSize(src, upstreamReadBuffer), src: src}, nil
}

// put returns a connection whose last exchange completed cleanly, and
// closes connections idle for too long at the cold end. now is the start
// of the request it carried (so it is dropped early, never late).
func (p *connPool) put(c *upConn, now time.Time) {
	c.lastUsed, c.reused = now, true
	p.mu.Lock()
	expired := 0
	for expired < len(p.idle) && now.Sub(p.idle[expired].lastUsed) >= upstreamIdleTimeout {
		_ = p.idle[expired].Close()
		expired++
	}
	if expired > 0 {
		p.idle = append(p.idle[:0], p.idle[expired:]...)
	}
	if p.closed || len(p.idle) >= upstreamMaxIdle {
		p.mu.Unlock()
		_ = c.Close()
		return
	}
	p.idle = append(p.idle, c)
	p.mu.Unlock()
}

// close closes the idle connections and every connection put back later.
func (p *connPool) close() {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.closed = nil, true
	p.mu.Unlock()
	for _, c := range idle {
		_ = c.Close()
	}
}
