package h1

import (
	"context"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/testalloc"
)

// loopConn serves the same request bytes forever and swallows the answers.
type loopConn struct {
	req     []byte
	off     int
	written int
}

func (c *loopConn) Read(p []byte) (int, error) {
	n := copy(p, c.req[c.off:])
	c.off = (c.off + n) % len(c.req)
	return n, nil
}
func (c *loopConn) Write(p []byte) (int, error)      { c.written += len(p); return len(p), nil }
func (c *loopConn) Close() error                     { return nil }
func (c *loopConn) LocalAddr() net.Addr              { return &net.TCPAddr{} }
func (c *loopConn) RemoteAddr() net.Addr             { return &net.TCPAddr{} }
func (c *loopConn) SetDeadline(time.Time) error      { return nil }
func (c *loopConn) SetReadDeadline(time.Time) error  { return nil }
func (c *loopConn) SetWriteDeadline(time.Time) error { return nil }

// The server's own cost per keep-alive request is one allocation: the head
// as one string, which the handler may keep. The handler here allocates
// nothing, so anything more is the server's.
func TestServerAllocatesOncePerRequest(t *testing.T) {
	req := "POST /v2/users/get HTTP/1.1\r\nHost: gw\r\nUser-Agent: bench\r\nContent-Type: application/json\r\n" +
		"X-Svc-Api-Key: key-1\r\nX-Svc-Auth-Token: token-1\r\n" +
		"Traceparent: 00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01\r\nContent-Length: 11\r\n\r\n{\"data\":{}}"
	answer := []byte(`{"data":{"id":"u1"}}`)
	contentType := []string{"application/json"}
	var body [16]byte
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n, _ := io.ReadFull(r.Body, body[:r.ContentLength]); n != 11 || r.Header["X-Svc-Api-Key"][0] != "key-1" {
			w.WriteHeader(http.StatusBadRequest)
		}
		w.Header()["Content-Type"] = contentType
		_, _ = w.Write(answer)
	})
	nc := &loopConn{req: []byte(req)}
	s := &Server{Handler: h, ReadTimeout: time.Minute, WriteTimeout: time.Minute, IdleTimeout: time.Minute}
	c := newConn(s, nc)
	c.init(context.Background())
	if !c.serveOne() || nc.written == 0 {
		t.Fatal("first request not served")
	}
	allocs := testalloc.PerRun(200, func() {
		if !c.serveOne() {
			t.Fatal("connection not kept alive")
		}
	})
	if allocs > 1 {
		t.Fatalf("%.1f allocations per request, want at most 1", allocs)
	}
}
