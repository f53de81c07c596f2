//go:build linux

package main

import (
	"bytes"
	"net"
	"strconv"
	"syscall"
	"unsafe"
)

// The sketch's exchanges: a request read whole goes up as it came, the
// answer read whole goes back (see sketch_linux.go).

// request reads from a client and, once a request is whole, sends it up.
func (l *sketchLoop) request(c *sketchConn) {
	m, errno := sketchRead(c.fd, c.buf[c.n:])
	if errno == syscall.EAGAIN {
		return
	}
	if m <= 0 {
		l.close(c)
		return
	}
	c.n += m
	total := messageLen(c.buf[:c.n])
	if total == 0 || c.peer != nil {
		return // incomplete, or a pipelined request (not in this benchmark)
	}
	if total < 0 {
		l.close(c)
		return
	}
	u, err := l.upstreamConn()
	if err != nil {
		l.close(c)
		return
	}
	if !sketchWriteAll(u.fd, c.buf[:total]) {
		l.close(u)
		l.close(c)
		return
	}
	c.n = copy(c.buf[:], c.buf[total:c.n])
	u.peer, c.peer = c, u
}

// answer reads from an upstream connection and, once the answer is whole,
// writes it to its client and puts the connection back in the pool.
func (l *sketchLoop) answer(u *sketchConn) {
	m, errno := sketchRead(u.fd, u.buf[u.n:])
	if errno == syscall.EAGAIN {
		return
	}
	if m <= 0 {
		if u.peer != nil {
			l.close(u.peer)
		}
		l.close(u)
		return
	}
	u.n += m
	total := messageLen(u.buf[:u.n])
	if total == 0 {
		return
	}
	c := u.peer
	u.peer = nil
	if total < 0 || total != u.n {
		l.close(u)
		if c != nil {
			l.close(c)
		}
		return
	}
	u.n = 0
	l.idle = append(l.idle, u)
	if c == nil {
		return // the client left meanwhile
	}
	c.peer = nil
	if !sketchWriteAll(c.fd, u.buf[:total]) {
		l.close(c)
	}
}

func (l *sketchLoop) upstreamConn() (*sketchConn, error) {
	for n := len(l.idle); n > 0; n = len(l.idle) {
		u := l.idle[n-1]
		l.idle = l.idle[:n-1]
		if !u.closed { // the service may have closed an idle one
			return u, nil
		}
	}
	fd, err := dialUpstream(l.up)
	if err != nil {
		return nil, err
	}
	if err := l.watch(fd); err != nil {
		_ = syscall.Close(fd)
		return nil, err
	}
	u := &sketchConn{fd: fd, upstream: true}
	l.conns[fd] = u
	return u, nil
}

// close drops c. A peer in flight is left without it: a client's answer
// is dropped when it comes; the callers close an upstream connection's
// client. A closed upstream connection still in the idle pool is marked,
// since its descriptor number may be reused at once.
func (l *sketchLoop) close(c *sketchConn) {
	if p := c.peer; p != nil {
		p.peer, c.peer = nil, nil
	}
	c.closed = true
	delete(l.conns, c.fd)
	_ = syscall.Close(c.fd)
}

// messageLen is the length of the HTTP/1.1 message at the start of b: 0
// while its head or body is incomplete, -1 for one the sketch cannot
// carry (no room left, or a body without Content-Length).
func messageLen(b []byte) int {
	end := bytes.Index(b, []byte("\r\n\r\n"))
	if end < 0 {
		if len(b) == sketchBuffer {
			return -1
		}
		return 0
	}
	head := b[:end+4]
	body := 0
	for line := range bytes.SplitSeq(head, []byte("\r\n")) {
		name, value, ok := bytes.Cut(line, []byte(":"))
		switch {
		case !ok:
		case bytes.EqualFold(name, []byte("Content-Length")):
			n, err := strconv.Atoi(string(bytes.TrimSpace(value)))
			if err != nil || n < 0 {
				return -1
			}
			body = n
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			return -1
		}
	}
	total := len(head) + body
	switch {
	case total > sketchBuffer:
		return -1
	case len(b) < total:
		return 0
	}
	return total
}

// sketchRead and sketchWriteAll use raw system calls on non-blocking
// sockets: they never block, so the runtime need not know.
func sketchRead(fd int, b []byte) (int, syscall.Errno) {
	if len(b) == 0 {
		return 0, syscall.ENOBUFS // a client sent more than one request's worth
	}
	n, _, errno := syscall.RawSyscall(syscall.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	return int(n), errno
}

func sketchWriteAll(fd int, b []byte) bool {
	for len(b) > 0 {
		n, _, errno := syscall.RawSyscall(syscall.SYS_WRITE, uintptr(fd), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
		if errno != 0 {
			// A full socket buffer would need EPOLLOUT; these messages are
			// a few hundred bytes on loopback.
			return false
		}
		b = b[n:]
	}
	return true
}

// upstreamSockaddr is the IPv4 address of host:port.
func upstreamSockaddr(hostport string) (syscall.SockaddrInet4, error) {
	ap, err := net.ResolveTCPAddr("tcp4", hostport)
	if err != nil {
		return syscall.SockaddrInet4{}, err
	}
	up := syscall.SockaddrInet4{Port: ap.Port}
	copy(up.Addr[:], ap.IP.To4())
	return up, nil
}

// dialUpstream connects a non-blocking socket to up, with a blocking
// connect on loopback: done once per pooled connection. up is a copy:
// syscall.Connect writes into the address it is given.
func dialUpstream(up syscall.SockaddrInet4) (int, error) {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return 0, err
	}
	if err := syscall.Connect(fd, &up); err != nil {
		_ = syscall.Close(fd)
		return 0, err
	}
	_ = syscall.SetNonblock(fd, true)
	_ = syscall.SetsockoptInt(fd, syscall.IPPROTO_TCP, syscall.TCP_NODELAY, 1)
	return fd, nil
}
