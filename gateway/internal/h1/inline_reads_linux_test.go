package h1

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// A keep-alive connection whose client sends each request once it has the
// previous answer costs the server one read(2) per request: the read that
// brings it. Before serving inside the wait for input, each answer was
// followed by a read that found the socket empty (two per request).
//
// Not parallel: the count is the process's (/proc/self/io), so no other
// test may read meanwhile. The client is a blocking socket whose reads are
// counted here and subtracted.
func TestKeepAliveOneReadPerRequest(t *testing.T) {
	if _, err := readSyscalls(); err != nil {
		t.Skipf("no read(2) count: %v", err)
	}
	_, addr := serveInlineTest(t, func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Length", "2")
		_, _ = w.Write([]byte("ok"))
	})
	for _, req := range []string{pingRequest, postRequest} {
		fd := dialBlocking(t, addr)
		perRequest := readsPerRequest(t, fd, req)
		t.Logf("%.12q...: server read(2) calls per request: %.3f", req, perRequest)
		if perRequest > 1.1 {
			t.Errorf("%.12q...: %.3f server reads per request, want 1 (no empty read after each answer)", req, perRequest)
		}
	}
}

// postRequest is an API call: a small body that comes with the head.
const postRequest = "POST /call HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{\"id\":\"u-42\"}"

// readsPerRequest sends req on fd, answer after answer, and returns the
// server's reads per request.
func readsPerRequest(t *testing.T, fd int, req string) float64 {
	t.Helper()
	buf := make([]byte, 4096)
	roundTrip := func() int {
		if err := writeAll(fd, []byte(req)); err != nil {
			t.Fatal(err)
		}
		reads, got := 0, 0
		for !bytes.HasSuffix(buf[:got], []byte("\r\n\r\nok")) {
			n, err := syscall.Read(fd, buf[got:])
			reads++ // an interrupted read counts in /proc/self/io too
			if err == syscall.EINTR {
				continue // the runtime's preemption signal, not the server
			}
			if err != nil || n <= 0 {
				t.Fatalf("reading the answer: %d, %v (a lost wakeup times out)", n, err)
			}
			got += n
		}
		return reads
	}
	roundTrip() // the connection's first wait begins with a read
	const requests = 200
	before, _ := readSyscalls()
	clientReads := 0
	for range requests {
		clientReads += roundTrip()
		// A client that takes a moment before its next request (as one
		// does under load): the server is then waiting, not racing it.
		// nanosleep, not time.Sleep: the runtime's timer wake-ups read
		// an eventfd, which would count.
		_ = syscall.Nanosleep(&syscall.Timespec{Nsec: 100_000}, nil)
	}
	after, _ := readSyscalls()
	return float64(after-before-clientReads) / requests
}

// readSyscalls is the process's count of read(2) calls so far.
func readSyscalls() (int, error) {
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "syscr: "); ok {
			return strconv.Atoi(strings.TrimSpace(v))
		}
	}
	return 0, os.ErrNotExist
}

// dialBlocking connects a blocking socket (no poller, one read per
// arrival) to addr, with a receive timeout.
func dialBlocking(t *testing.T, addr string) int {
	t.Helper()
	ta, err := net.ResolveTCPAddr("tcp4", addr)
	if err != nil {
		t.Fatal(err)
	}
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Close(fd) })
	tv := syscall.Timeval{Sec: 10}
	if err := syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv); err != nil {
		t.Fatal(err)
	}
	sa := &syscall.SockaddrInet4{Port: ta.Port}
	copy(sa.Addr[:], ta.IP.To4())
	if err := syscall.Connect(fd, sa); err != nil {
		t.Fatal(err)
	}
	return fd
}

// writeAll writes p to the blocking socket fd, again after a signal
// interrupted the call (Go preempts goroutines with signals).
func writeAll(fd int, p []byte) error {
	for len(p) > 0 {
		n, err := syscall.Write(fd, p)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		p = p[n:]
	}
	return nil
}
