package gateway

import (
	"net"
	"syscall"

	"github.com/opencollab/backend/gateway/internal/nbio"
)

// serve handles readiness of end i of pt; false ends the tunnel. A
// message costs one read and one write: the loop's buffer is reused, and
// the epoll set is changed only when a direction starts or stops being
// held back.
func (p *poller) serve(pt *polledTunnel, i int, events uint32, buf []byte) bool {
	src, dst := &pt.ends[i], &pt.ends[1-i]
	if events&syscall.EPOLLOUT != 0 && len(src.out) > 0 {
		n, err := relayWrite(src.fd, src.out)
		if err != nil {
			return false
		}
		src.out = src.out[n:]
		if len(src.out) == 0 {
			src.out = nil
		}
	}
	if events&(syscall.EPOLLHUP|syscall.EPOLLERR) != 0 {
		return false // reported whatever the interest: the socket is done
	}
	if events&relayEvents != 0 && dst.out == nil {
		n, err := nbio.Read(src.fd, buf)
		switch {
		case err == syscall.EAGAIN:
		case err != nil || n == 0: // 0 bytes: the peer closed
			return false
		default:
			w, err := relayWrite(dst.fd, buf[:n])
			if err != nil {
				return false
			}
			if w < n {
				dst.out = append([]byte(nil), buf[w:n]...)
			}
		}
	}
	return p.rearm(pt) == nil
}

// rearm registers each socket for what it waits for, where that changed:
// input while its direction is not held back, output while bytes wait
// for it.
func (p *poller) rearm(pt *polledTunnel) error {
	for i := range pt.ends {
		self, other := &pt.ends[i], &pt.ends[1-i]
		var want uint32
		if other.out == nil {
			want |= relayEvents
		}
		if self.out != nil {
			want |= syscall.EPOLLOUT
		}
		if want == self.events {
			continue
		}
		if err := p.epollCtl(syscall.EPOLL_CTL_MOD, self.fd, want, pt.key(i)); err != nil {
			return err
		}
		self.events = want
	}
	return nil
}

// relayWrite writes what the non-blocking socket takes now; EAGAIN is not
// an error, only a short count.
func relayWrite(fd int, b []byte) (int, error) {
	written := 0
	for written < len(b) {
		n, err := nbio.Write(fd, b[written:]) // retries EINTR itself
		switch {
		case err == syscall.EAGAIN:
			return written, nil
		case err != nil:
			return written, err
		default:
			written += n
		}
	}
	return written, nil
}

// takeSockets gives the descriptors of two TCP connections to the
// caller: each is duplicated and its connection closed, which takes it
// out of Go's network poller and frees its state. ok is false, with
// both connections untouched, for anything but two TCP connections.
func takeSockets(a, b net.Conn) (fds [2]int, ok bool) {
	fds = [2]int{-1, -1}
	for i, c := range []net.Conn{a, b} {
		tc, isTCP := c.(*net.TCPConn)
		var err error
		if isTCP {
			fds[i], err = dupSocket(tc)
		}
		if !isTCP || err != nil {
			if i == 1 && fds[0] >= 0 {
				_ = syscall.Close(fds[0])
			}
			return fds, false
		}
	}
	_ = a.Close()
	_ = b.Close()
	return fds, true
}

// dupSocket duplicates c's descriptor (close-on-exec, non-blocking like
// the original: the flag belongs to the shared open socket).
func dupSocket(c *net.TCPConn) (int, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return -1, err
	}
	fd := -1
	var errno syscall.Errno
	if err := raw.Control(func(s uintptr) {
		r, _, e := syscall.Syscall(syscall.SYS_FCNTL, s, syscall.F_DUPFD_CLOEXEC, 0)
		fd, errno = int(r), e
	}); err != nil {
		return -1, err
	}
	if errno != 0 {
		return -1, errno
	}
	return fd, nil
}
