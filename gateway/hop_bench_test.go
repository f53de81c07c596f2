package gateway

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/telemetry"
)

// BenchmarkHopInMemory is the gateway's own cost per proxied request with
// the network taken out: the lean inbound server reads the request from an
// in-memory connection, the gateway authenticates (warm credentials), rate
// limits, traces (sampled as in production) and proxies it to an in-memory
// service connection that answers as a Gin service does. One goroutine
// does it all, so cpu-ns/op (process CPU, garbage collection included) is
// the gateway's CPU per request outside syscalls and the scheduler, and
// allocs/op is exactly the gateway's.
//
//	go test -run '^$' -bench BenchmarkHopInMemory -benchmem ./gateway/
func BenchmarkHopInMemory(b *testing.B) {
	serve := newMemHop(b, "0.01")
	serve(10) // the connection pool and the buffers
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU()
	c := serve(b.N)
	b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
	b.StopTimer()
	if c.answers != b.N || c.bad != 0 {
		b.Fatalf("%d answers, %d not 200, want %d", c.answers, c.bad, b.N)
	}
}

// newMemHop is the in-memory hop of BenchmarkHopInMemory, tracing sampled
// at ratio: serve(n) sends n users/get requests on one keep-alive client
// connection to the lean inbound server and returns once it hung up.
func newMemHop(tb testing.TB, ratio string) (serve func(n int) *memClient) {
	setupProductionTracing(tb, ratio)
	e := newEnv(tb, func(c *Config) {
		c.RateLimitPerSecond = 1 << 40 // exercised, never refusing
		c.LogLevel = "info"
	})
	answer := `{"result":{"status":"success","message":"Retrieved users successfully.","data":[{"userId":"user-001"}]}}`
	// Before any request: a real connection the warm-up left in a pool
	// would carry every request after it (the pool takes it back after the
	// answer has reached the client, so it cannot be drained reliably).
	for _, rt := range e.gw.router.routes {
		if rt.proxy != nil {
			rt.proxy.pool.dialTCP = func(context.Context, string, string) (net.Conn, error) {
				return &memService{answer: "HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=utf-8\r\n" +
					"Date: Thu, 26 Nov 2026 12:00:00 GMT\r\nContent-Length: " + strconv.Itoa(len(answer)) + "\r\n\r\n" + answer}, nil
			}
		}
	}
	resp, raw := e.post("/v2/users/get", `{}`, creds...) // resolves the credentials (svc-workspace's client, not a pool)
	if resp.StatusCode != http.StatusOK {
		tb.Fatalf("warm-up: %d %s", resp.StatusCode, raw)
	}
	body := `{"data":{"organizationId":"bench-org","userIds":["user-001","user-002"]}}`
	req := "POST /v2/users/get HTTP/1.1\r\nHost: gateway:8080\r\nContent-Type: application/json\r\n" +
		"X-Svc-Api-Key: " + testKey + "\r\nX-Svc-Auth-Token: " + testToken + "\r\n" +
		"Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
	ln := newMemListener()
	srv := newH1Server(e.gw.Handler())
	go func() { _ = srv.Serve(ln) }()
	tb.Cleanup(func() { _ = srv.Close() })
	return func(n int) *memClient {
		c := &memClient{req: req, left: n, closed: make(chan struct{})}
		ln.conns <- c
		<-c.closed
		return c
	}
}

// setupProductionTracing installs the process telemetry as the gateway's
// main does, exporting to a sink, sampled at ratio (production: 0.01) by a
// parent-based sampler.
func setupProductionTracing(b testing.TB, ratio string) {
	sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
	}))
	b.Cleanup(sink.Close)
	b.Setenv(telemetry.EndpointEnv, sink.URL)
	b.Setenv("OTEL_TRACES_SAMPLER", "parentbased_traceidratio")
	b.Setenv("OTEL_TRACES_SAMPLER_ARG", ratio)
	shutdown, err := telemetry.Setup(context.Background(), telemetry.Service{Name: "gateway"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = shutdown(context.Background()) })
}

// memListener hands out the connections sent on conns.
type memListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func newMemListener() *memListener {
	return &memListener{conns: make(chan net.Conn), done: make(chan struct{})}
}

func (l *memListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *memListener) Close() error   { l.once.Do(func() { close(l.done) }); return nil }
func (l *memListener) Addr() net.Addr { return &net.TCPAddr{} }

// memConn is the no-op part of an in-memory net.Conn.
type memConn struct{}

func (memConn) LocalAddr() net.Addr              { return &net.TCPAddr{} }
func (memConn) RemoteAddr() net.Addr             { return &net.TCPAddr{} }
func (memConn) SetDeadline(time.Time) error      { return nil }
func (memConn) SetReadDeadline(time.Time) error  { return nil }
func (memConn) SetWriteDeadline(time.Time) error { return nil }

// memClient sends req left times, each once the previous answer has been
// written (a keep-alive client), then hangs up.
type memClient struct {
	memConn
	req          string
	off          int
	left         int
	waiting      bool // a request was sent whole; its answer is due
	answers, bad int
	closed       chan struct{}
	once         sync.Once
}

func (c *memClient) Read(p []byte) (int, error) {
	if c.waiting {
		return 0, errors.New("memClient: read before the answer was written")
	}
	if c.left == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.req[c.off:])
	if c.off += n; c.off == len(c.req) {
		c.off, c.waiting = 0, true
		c.left--
	}
	return n, nil
}

func (c *memClient) Write(p []byte) (int, error) {
	if c.waiting {
		c.waiting = false
		c.answers++
		if !bytes.HasPrefix(p, []byte("HTTP/1.1 200 ")) {
			c.bad++
		}
	}
	return len(p), nil
}

func (c *memClient) Close() error { c.once.Do(func() { close(c.closed) }); return nil }

// memService answers every request written to it with answer.
type memService struct {
	memConn
	answer  string
	pending string
}

func (s *memService) Write(p []byte) (int, error) {
	s.pending = s.answer
	return len(p), nil
}

func (s *memService) Read(p []byte) (int, error) {
	if s.pending == "" {
		return 0, errors.New("memService: read with no answer pending")
	}
	n := copy(p, s.pending)
	s.pending = s.pending[n:]
	return n, nil
}

func (s *memService) Close() error { return nil }
