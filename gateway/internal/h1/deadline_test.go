package h1

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// serveTimeouts starts s on loopback and returns a connection to it.
func serveTimeouts(t *testing.T, s *Server) net.Conn {
	t.Helper()
	s.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "ok") })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = s.Serve(ln) }()
	t.Cleanup(func() { _ = s.Close() })
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// closedAfter waits for the server to close c and returns how long that took.
func closedAfter(t *testing.T, c net.Conn, br *bufio.Reader) time.Duration {
	t.Helper()
	start := time.Now()
	_ = c.SetReadDeadline(start.Add(5 * time.Second))
	if _, err := br.ReadByte(); err != io.EOF {
		t.Fatalf("read %v, want the server to close the connection", err)
	}
	return time.Since(start)
}

// Deadlines move on the socket only when they moved by the slack, yet a
// kept-alive connection is still closed after its idle timeout, counted
// from its last answer (not from an earlier deadline left on the socket).
func TestIdleTimeoutAfterManyRequests(t *testing.T) {
	t.Parallel()
	const idle = 400 * time.Millisecond
	c := serveTimeouts(t, &Server{IdleTimeout: idle, ReadTimeout: 10 * time.Second})
	br := bufio.NewReader(c)
	for range 5 {
		time.Sleep(idle / 4)
		if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	slack := (&Server{IdleTimeout: idle}).deadlineSlack()
	if d := closedAfter(t, c, br); d < idle-slack-50*time.Millisecond {
		t.Fatalf("closed %v after the last answer, idle timeout %v", d, idle)
	}
}

// A head that trickles in is cut off by ReadHeaderTimeout, set on the
// socket when the head needs a second read.
func TestReadHeaderTimeoutStopsSlowHead(t *testing.T) {
	t.Parallel()
	c := serveTimeouts(t, &Server{ReadHeaderTimeout: 300 * time.Millisecond, IdleTimeout: 10 * time.Second})
	if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n"); err != nil {
		t.Fatal(err)
	}
	if d := closedAfter(t, c, bufio.NewReader(c)); d > 3*time.Second {
		t.Fatalf("slow head held for %v", d)
	}
}
