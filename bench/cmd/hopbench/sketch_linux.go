//go:build linux

package main

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"syscall"
)

// The sketch target: what the gateway's hop would cost as an event loop
// in Go, before any of the gateway's behaviour is put in it. Each core
// runs one loop with its own epoll set and its own SO_REUSEPORT listener,
// as nginx's workers do. The loop's goroutine waits for its set in Go's
// poller (the set's descriptor is readable while it has events) and
// serves every ready connection per wake: a request read whole from a
// client is written as it came to a pooled upstream connection, the
// answer read whole is written back, with no goroutine hand-off. No auth,
// rate limit, tracing or header rewriting: an upper bound for the design,
// set against nginx (which does as little here), not a proxy to run.
// Bodies must come with Content-Length and fit sketchBuffer.

const sketchBuffer = 16 << 10

type sketchConn struct {
	fd       int
	upstream bool
	buf      [sketchBuffer]byte
	n        int
	peer     *sketchConn // the other side while a request is in flight
	closed   bool
}

type sketchLoop struct {
	*epollSet
	lfd   int
	up    syscall.SockaddrInet4
	conns map[int]*sketchConn
	idle  []*sketchConn // upstream connections without a request
}

// runSketch serves on one loop per GOMAXPROCS until ctx ends.
func runSketch(ctx context.Context, upstream string, withPprof bool) error {
	return runLoopProxy(ctx, upstream, withPprof, startSketch)
}

// runLoopProxy runs a proxy role started by start (startSketch,
// startSplit) with one loop per GOMAXPROCS until ctx ends: it prints its
// address and pprof's, as every role does.
func runLoopProxy(ctx context.Context, upstream string, withPprof bool, start func(string, int) (int, <-chan error, func(), error)) error {
	pprofAddr, err := servePprof(withPprof)
	if err != nil {
		return err
	}
	port, errc, stop, err := start(upstream, runtime.GOMAXPROCS(0))
	if err != nil {
		return err
	}
	defer stop()
	fmt.Println("127.0.0.1:"+strconv.Itoa(port), pprofAddr)
	select {
	case <-ctx.Done():
		return nil
	case err := <-errc:
		return err
	}
}

// startSketch starts loops event loops proxying to upstream (host:port,
// IPv4) and returns the port they share, where a loop's end is reported,
// and stop, which ends them all.
func startSketch(upstream string, loops int) (port int, errc <-chan error, stop func(), err error) {
	up, err := upstreamSockaddr(upstream)
	if err != nil {
		return 0, nil, nil, err
	}
	ended := make(chan error, loops)
	var started []*sketchLoop
	stop = func() {
		for _, l := range started {
			_ = l.file.Close()
		}
	}
	for range loops {
		lfd, p, err := sketchListen(port)
		if err != nil {
			stop()
			return 0, nil, nil, err
		}
		l, err := newSketchLoop(lfd, up)
		if err != nil {
			_ = syscall.Close(lfd)
			stop()
			return 0, nil, nil, err
		}
		port = p
		started = append(started, l)
		go func() { ended <- l.run() }()
	}
	return port, ended, stop, nil
}

// sketchListen opens a non-blocking listener on 127.0.0.1:port (0: any)
// with SO_REUSEPORT, so every loop gets its own.
func sketchListen(port int) (int, int, error) {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_NONBLOCK|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return 0, 0, err
	}
	const soReusePort = 0xf
	err = syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, soReusePort, 1)
	if err == nil {
		err = syscall.Bind(fd, &syscall.SockaddrInet4{Port: port, Addr: [4]byte{127, 0, 0, 1}})
	}
	if err == nil {
		err = syscall.Listen(fd, 4096)
	}
	var sa syscall.Sockaddr
	if err == nil {
		sa, err = syscall.Getsockname(fd)
	}
	if err != nil {
		_ = syscall.Close(fd)
		return 0, 0, err
	}
	return fd, sa.(*syscall.SockaddrInet4).Port, nil
}

// newSketchLoop makes the loop serving lfd, on an epoll set of its own.
func newSketchLoop(lfd int, up syscall.SockaddrInet4) (*sketchLoop, error) {
	set, err := newEpollSet()
	if err != nil {
		return nil, err
	}
	l := &sketchLoop{epollSet: set, lfd: lfd, up: up, conns: map[int]*sketchConn{}}
	if err := l.watch(lfd); err != nil {
		_ = l.file.Close()
		return nil, err
	}
	return l, nil
}

// run serves until the loop's epoll file is closed, then closes what the
// loop holds.
func (l *sketchLoop) run() error {
	defer l.closeAll()
	return l.wait(l.serve)
}

func (l *sketchLoop) closeAll() {
	for _, c := range l.conns {
		_ = syscall.Close(c.fd)
	}
	_ = syscall.Close(l.lfd)
}

func (l *sketchLoop) serve(events []syscall.EpollEvent) {
	for _, ev := range events {
		fd := int(ev.Fd)
		if fd == l.lfd {
			l.accept()
			continue
		}
		if c := l.conns[fd]; c != nil && c.upstream {
			l.answer(c)
		} else if c != nil {
			l.request(c)
		}
	}
}

func (l *sketchLoop) accept() {
	for {
		fd, _, err := syscall.Accept4(l.lfd, syscall.SOCK_NONBLOCK|syscall.SOCK_CLOEXEC)
		if err != nil {
			return // EAGAIN: all taken
		}
		_ = syscall.SetsockoptInt(fd, syscall.IPPROTO_TCP, syscall.TCP_NODELAY, 1)
		if l.watch(fd) != nil {
			_ = syscall.Close(fd)
			continue
		}
		l.conns[fd] = &sketchConn{fd: fd}
	}
}
