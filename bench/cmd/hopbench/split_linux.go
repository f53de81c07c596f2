//go:build linux

package main

import (
	"context"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
)

// The split target: the sketch's answer half alone. Client connections are
// served as the gateway serves them, by a goroutine each that waits for a
// request inside one RawConn.Read and sends it up itself; the answers come
// back on one event loop per core (the sketch's, without a listener), which
// writes each to its client and pools the upstream connection. A request
// then readies its client's goroutine once (its head came) and shares a
// loop's wake for its answer, where the gateway's goroutine is readied
// twice. It measures whether moving only the answer half onto loops would
// get the gateway the sketch's cost; like the sketch it carries requests
// as they came, with no auth, rate limit, tracing or header rewriting.

type splitClient struct {
	fd       int
	inflight atomic.Bool // a request is up; cleared before its answer is written
	mu       sync.Mutex  // held by the loop writing an answer and by close
	closed   bool
	buf      [sketchBuffer]byte
	n        int
}

type splitUpstream struct {
	fd     int
	buf    [sketchBuffer]byte
	n      int
	client *splitClient // while a request is in flight
	closed bool
}

type splitLoop struct {
	*epollSet
	up    syscall.SockaddrInet4
	mu    sync.Mutex // conns, idle and each upstream connection's client
	conns map[int]*splitUpstream
	idle  []*splitUpstream
}

// runSplit serves on one answer loop per GOMAXPROCS until ctx ends.
func runSplit(ctx context.Context, upstream string, withPprof bool) error {
	return runLoopProxy(ctx, upstream, withPprof, startSplit)
}

// startSplit is startSketch's counterpart: one listener served by a
// goroutine per client, loops answer loops.
func startSplit(upstream string, loops int) (port int, errc <-chan error, stop func(), err error) {
	up, err := upstreamSockaddr(upstream)
	if err != nil {
		return 0, nil, nil, err
	}
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		return 0, nil, nil, err
	}
	ended := make(chan error, loops)
	var started []*splitLoop
	stop = func() {
		_ = ln.Close()
		for _, l := range started {
			_ = l.file.Close()
		}
	}
	for range loops {
		set, err := newEpollSet()
		if err != nil {
			stop()
			return 0, nil, nil, err
		}
		l := &splitLoop{epollSet: set, up: up, conns: map[int]*splitUpstream{}}
		started = append(started, l)
		go func() { ended <- l.run() }()
	}
	go acceptSplit(ln, started)
	return ln.Addr().(*net.TCPAddr).Port, ended, stop, nil
}

// acceptSplit hands the clients to the loops in turn until ln is closed.
func acceptSplit(ln net.Listener, loops []*splitLoop) {
	for i := 0; ; i++ {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go loops[i%len(loops)].serveClient(c.(*net.TCPConn))
	}
}

// serveClient waits for each request inside one RawConn.Read, as the
// gateway's h1 does, and sends it up; the answer is the loop's to write.
func (l *splitLoop) serveClient(c *net.TCPConn) {
	rc, err := c.SyscallConn()
	if err != nil {
		_ = c.Close()
		return
	}
	cl := &splitClient{}
	_ = rc.Control(func(fd uintptr) { cl.fd = int(fd) })
	_ = rc.Read(func(uintptr) bool {
		m, errno := sketchRead(cl.fd, cl.buf[cl.n:])
		if errno == syscall.EAGAIN {
			return false
		}
		if m <= 0 {
			return true
		}
		cl.n += m
		total := messageLen(cl.buf[:cl.n])
		switch {
		case total == 0:
			return false
		case total < 0 || cl.inflight.Load(): // or pipelined: not in this benchmark
			return true
		}
		cl.inflight.Store(true)
		if !l.send(cl, cl.buf[:total]) {
			return true
		}
		cl.n = copy(cl.buf[:], cl.buf[total:cl.n])
		return false
	})
	// Closed under its lock, so no answer is written to a reused descriptor.
	cl.mu.Lock()
	cl.closed = true
	_ = c.Close()
	cl.mu.Unlock()
}

// send writes req up on a pooled connection paired with cl.
func (l *splitLoop) send(cl *splitClient, req []byte) bool {
	u, err := l.upstreamConn(cl)
	if err != nil {
		return false
	}
	if !sketchWriteAll(u.fd, req) {
		l.mu.Lock()
		if !u.closed {
			l.close(u)
		}
		l.mu.Unlock()
		return false
	}
	return true
}

// upstreamConn is an idle connection, or a new one, paired with cl.
func (l *splitLoop) upstreamConn(cl *splitClient) (*splitUpstream, error) {
	l.mu.Lock()
	for n := len(l.idle); n > 0; n = len(l.idle) {
		u := l.idle[n-1]
		l.idle = l.idle[:n-1]
		if !u.closed { // the service may have closed an idle one
			u.client = cl
			l.mu.Unlock()
			return u, nil
		}
	}
	l.mu.Unlock()
	fd, err := dialUpstream(l.up)
	if err != nil {
		return nil, err
	}
	u := &splitUpstream{fd: fd, client: cl}
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.watch(fd); err != nil {
		_ = syscall.Close(fd)
		return nil, err
	}
	l.conns[fd] = u
	return u, nil
}

// run answers until the loop's epoll file is closed, then closes its
// upstream connections (the clients' goroutines end with their clients).
func (l *splitLoop) run() error {
	defer func() {
		l.mu.Lock()
		for _, u := range l.conns {
			l.close(u)
		}
		l.mu.Unlock()
	}()
	return l.wait(func(events []syscall.EpollEvent) {
		for _, ev := range events {
			l.mu.Lock()
			u := l.conns[int(ev.Fd)]
			l.mu.Unlock()
			if u != nil {
				l.answer(u)
			}
		}
	})
}

// answer reads from an upstream connection and, once the answer is whole,
// writes it to its client and pools the connection.
func (l *splitLoop) answer(u *splitUpstream) {
	m, errno := sketchRead(u.fd, u.buf[u.n:])
	if errno == syscall.EAGAIN {
		return
	}
	if m > 0 {
		u.n += m
	}
	total := messageLen(u.buf[:u.n])
	if m > 0 && total == 0 {
		return // incomplete
	}
	l.mu.Lock()
	cl := u.client
	u.client = nil
	if m <= 0 || total < 0 || total != u.n {
		l.close(u)
		l.mu.Unlock()
		if cl != nil {
			cl.shut()
		}
		return
	}
	// Pooled before the answer goes out, so the client's next request can
	// take it; only this loop reads its buffer, after this returns.
	u.n = 0
	l.idle = append(l.idle, u)
	l.mu.Unlock()
	if cl != nil {
		cl.inflight.Store(false)
		cl.write(u.buf[:total])
	}
}

// close drops u (l.mu held). A closed connection still in the idle pool is
// marked, since its descriptor number may be reused at once.
func (l *splitLoop) close(u *splitUpstream) {
	u.closed = true
	delete(l.conns, u.fd)
	_ = syscall.Close(u.fd)
}

// write sends an answer to the client, or ends its connection when it
// cannot take it whole.
func (cl *splitClient) write(b []byte) {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	if !cl.closed && !sketchWriteAll(cl.fd, b) {
		_ = syscall.Shutdown(cl.fd, syscall.SHUT_RDWR)
	}
}

// shut ends the client's connection: its goroutine reads the end and
// closes it.
func (cl *splitClient) shut() {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	if !cl.closed {
		_ = syscall.Shutdown(cl.fd, syscall.SHUT_RDWR)
	}
}
