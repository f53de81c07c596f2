// Package h1 is a lean HTTP/1.1 server for the gateway: it serves a plain
// http.Handler like net/http does, but reads each request head into one
// string, reuses the http.Request, its header map and its buffers for every
// request of a connection, and answers a buffered response in one write.
// It has no HTTP/2 and no TLS: the gateway sits behind a TLS-terminating
// load balancer that speaks HTTP/1.1 to it.
//
// Where it differs from net/http on purpose: there is no background read
// while a handler runs, so a request's context is the connection's and is
// not cancelled when the client hangs up mid-request (the handler finds out
// when it writes), nor when the handler returns: it is BaseContext's, done
// only when that is. Timeouts are enforced by socket deadlines that move
// only when they moved by a sixteenth of the shortest timeout (at most a
// second), so one may fire that much early, never late. Shutdown closes a
// connection that has not yet sent its first byte at once, where net/http
// gives it 5 s. Everything else (framing, refusals, 100-continue,
// keep-alive rules, sniffing, Date) is checked against net/http by the
// response differential test, and the request parser by FuzzParseHead.
package h1

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// ErrServerClosed is returned by Serve after Shutdown or Close.
var ErrServerClosed = http.ErrServerClosed

// Server serves HTTP/1.1 on a listener. The zero limits take net/http's
// defaults.
type Server struct {
	Handler           http.Handler
	ReadHeaderTimeout time.Duration
	ReadTimeout       time.Duration
	WriteTimeout      time.Duration
	IdleTimeout       time.Duration
	MaxHeaderBytes    int
	// ListFields leaves r.Header empty for a request whose fields
	// RequestFields lists (most requests): the handler reads them from
	// there and fills the map itself where it needs one. It saves the
	// map's work on every request.
	ListFields bool
	// BaseContext is the parent of every connection's context.
	BaseContext func(net.Listener) context.Context

	mu       sync.Mutex
	ln       net.Listener
	conns    map[*conn]struct{}
	shutdown atomic.Bool
	done     chan struct{}
}

func (s *Server) maxHeaderBytes() int {
	if s.MaxHeaderBytes > 0 {
		return s.MaxHeaderBytes
	}
	return http.DefaultMaxHeaderBytes
}

// headLimit is the most a request head may take, its last line included.
func (s *Server) headLimit() int { return s.maxHeaderBytes() + 4096 }

// Serve accepts connections on ln until Shutdown or Close.
func (s *Server) Serve(ln net.Listener) error {
	s.mu.Lock()
	if s.shutdown.Load() {
		s.mu.Unlock()
		return ErrServerClosed
	}
	s.ln, s.conns, s.done = ln, map[*conn]struct{}{}, make(chan struct{})
	s.mu.Unlock()
	base := context.Background()
	if s.BaseContext != nil {
		base = s.BaseContext(ln)
	}
	var delay time.Duration
	for {
		nc, err := ln.Accept()
		if err != nil {
			if s.shutdown.Load() {
				return ErrServerClosed
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				delay = min(max(2*delay, 5*time.Millisecond), time.Second)
				time.Sleep(delay)
				continue
			}
			return err
		}
		delay = 0
		c := newConn(s, nc)
		if !s.track(c, true) {
			_ = nc.Close()
			return ErrServerClosed
		}
		go c.serve(base)
	}
}

// track adds or removes a connection; adding fails once shut down.
func (s *Server) track(c *conn, add bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if add {
		if s.shutdown.Load() {
			return false
		}
		s.conns[c] = struct{}{}
		return true
	}
	delete(s.conns, c)
	return true
}

// Shutdown stops accepting, closes idle connections and waits for active
// ones to finish their request, as http.Server.Shutdown does. Hijacked
// connections are not waited for.
func (s *Server) Shutdown(ctx context.Context) error {
	s.shutdown.Store(true)
	s.mu.Lock()
	var err error
	if s.ln != nil {
		err = s.ln.Close()
	}
	s.mu.Unlock()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		if s.closeIdle() {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// closeIdle closes idle connections and reports whether none is left.
func (s *Server) closeIdle() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		if c.closeIfIdle() {
			delete(s.conns, c)
		}
	}
	return len(s.conns) == 0
}

// Close closes the listener and every connection at once.
func (s *Server) Close() error {
	s.shutdown.Store(true)
	s.mu.Lock()
	defer s.mu.Unlock()
	var err error
	if s.ln != nil {
		err = s.ln.Close()
	}
	for c := range s.conns {
		c.abort()
		delete(s.conns, c)
	}
	return err
}

// abort closes the connection under a request in progress. A handler
// served inside the wait for input holds the socket, and closing it waits
// for the handler (inline.go): the socket is shut down at once, which
// the client sees and which fails the handler's writes, and closed when
// the handler is done.
func (c *conn) abort() {
	if c.state.Load() != stateActive {
		_ = c.nc.Close()
		return
	}
	if sd, ok := c.nc.(interface {
		CloseRead() error
		CloseWrite() error
	}); ok {
		_ = sd.CloseRead()
		_ = sd.CloseWrite()
	}
	go func() { _ = c.nc.Close() }()
}
