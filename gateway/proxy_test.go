package gateway

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/api"
)

// serviceWith runs h as the identity service of a fresh gateway and counts
// the connections the gateway opened to it.
func serviceWith(t *testing.T, h http.HandlerFunc) (*env, *atomic.Int64, *httptest.Server) {
	t.Helper()
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	e := newEnv(t, func(c *Config) { c.IdentityURL = srv.URL })
	return e, &conns, srv
}

func TestProxyReusesServiceConnections(t *testing.T) {
	t.Parallel()
	e, conns, _ := serviceWith(t, func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		_, _ = io.WriteString(w, `{"result":{"status":"success","message":"ok","data":{"service":"identity"}}}`)
	})
	for range 50 {
		resp, raw := e.post("/v2/users/get", `{"data":{}}`, creds...)
		wantService(t, resp, raw, svcIdentity)
	}
	if n := conns.Load(); n != 1 {
		t.Fatalf("50 sequential requests opened %d service connections, want 1", n)
	}
}

// countingConn counts the writes made on a service connection.
type countingConn struct {
	net.Conn
	writes *atomic.Int64
}

func (c countingConn) Write(b []byte) (int, error) {
	c.writes.Add(1)
	return c.Conn.Write(b)
}

// A request with a small body reaches the service in one write (one
// segment), so the service reads it at once instead of waking for the head
// and again for the body.
func TestProxyWritesHeadAndSmallBodyAtOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	var writes atomic.Int64
	pool := e.gw.router.match("/v2/users/get").proxy.pool
	dial := pool.dialTCP
	pool.dialTCP = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		return countingConn{Conn: c, writes: &writes}, err
	}
	for i := range 5 {
		body := `{"data":{"userIds":["` + strings.Repeat("u", 1000*i) + `"]}}`
		resp, raw := e.post("/v2/users/get", body, creds...)
		wantService(t, resp, raw, svcIdentity)
	}
	if n := writes.Load(); n != 5 {
		t.Fatalf("5 requests took %d writes to the service, want 5", n)
	}
}

// A pooled connection the service has closed meanwhile costs a retry on a
// new connection, not a failed request.
func TestProxyRetriesClosedPooledConnection(t *testing.T) {
	t.Parallel()
	e, conns, srv := serviceWith(t, func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		_, _ = io.WriteString(w, `{"result":{"status":"success","message":"ok","data":{"service":"identity"}}}`)
	})
	resp, raw := e.post("/v2/users/get", `{"data":{}}`, creds...)
	wantService(t, resp, raw, svcIdentity)
	srv.CloseClientConnections()
	time.Sleep(20 * time.Millisecond)
	resp, raw = e.post("/v2/users/get", `{"data":{"x":1}}`, creds...)
	wantService(t, resp, raw, svcIdentity)
	if n := conns.Load(); n != 2 {
		t.Fatalf("%d connections, want 2", n)
	}
}

func TestProxyStreamsChunkedAnswerAndDropsHopByHop(t *testing.T) {
	t.Parallel()
	e, _, _ := serviceWith(t, func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Connection", "X-Private")
		h.Set("X-Private", "hop-only")
		h.Set("Keep-Alive", "timeout=5")
		h.Set("X-Kept", "yes")
		h.Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusAccepted)
		for i := range 3 {
			_, _ = io.WriteString(w, strings.Repeat(string(rune('a'+i)), 10_000))
			w.(http.Flusher).Flush()
		}
	})
	resp, raw := e.post("/v2/users/get", `{"data":{}}`, creds...)
	want := strings.Repeat("a", 10_000) + strings.Repeat("b", 10_000) + strings.Repeat("c", 10_000)
	if resp.StatusCode != http.StatusAccepted || string(raw) != want {
		t.Fatalf("got %d with %d bytes", resp.StatusCode, len(raw))
	}
	if resp.Header.Get("X-Kept") != "yes" || resp.Header.Get("X-Private") != "" || resp.Header.Get("Keep-Alive") != "" {
		t.Fatalf("headers: %v", resp.Header)
	}
	if len(resp.TransferEncoding) == 0 || resp.TransferEncoding[0] != "chunked" {
		t.Fatalf("an answer of unknown length was not streamed chunked: %v", resp.TransferEncoding)
	}
}

func TestProxyLargeSizedBody(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	body := `{"data":{"x":"` + strings.Repeat("z", 300_000) + `"}}`
	resp, raw := e.post("/v2/users/get", body, creds...)
	wantService(t, resp, raw, svcIdentity)
	reqs := e.up[svcIdentity].requests()
	got := reqs[len(reqs)-1]
	if got.Body != body || got.Header.Get("Content-Length") != strconv.Itoa(len(body)) {
		t.Fatalf("body of %d bytes arrived as %d bytes, Content-Length %q", len(body), len(got.Body), got.Header.Get("Content-Length"))
	}
}

// A head near the header limit plus an inline body outgrows the pooled
// buffer; the request must still go through whole.
func TestProxyBigHeadAndInlineBody(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	body := `{"data":{"x":"` + strings.Repeat("b", 15_000) + `"}}`
	headers := append([]string{"X-Big-1", strings.Repeat("h", 20_000), "X-Big-2", strings.Repeat("i", 20_000)}, creds...)
	resp, raw := e.post("/v2/users/get", body, headers...)
	wantService(t, resp, raw, svcIdentity)
	reqs := e.up[svcIdentity].requests()
	got := reqs[len(reqs)-1]
	if got.Body != body || len(got.Header.Get("X-Big-2")) != 20_000 {
		t.Fatalf("body %d bytes, header %d bytes", len(got.Body), len(got.Header.Get("X-Big-2")))
	}
}

// A service that breaks off its answer after the head: the client must not
// take the truncated body for a whole one.
func TestProxyAbortsTruncatedAnswer(t *testing.T) {
	t.Parallel()
	e, _, _ := serviceWith(t, func(w http.ResponseWriter, r *http.Request) {
		conn, brw, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		_, _ = brw.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial")
		_ = brw.Flush()
		_ = conn.Close()
	})
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/v2/users/get", strings.NewReader(`{"data":{}}`))
	req.Header.Set("x-svc-api-key", testKey)
	req.Header.Set("x-svc-auth-token", testToken)
	resp, err := e.srv.Client().Do(req)
	if err == nil {
		_, err = io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	if err == nil {
		t.Fatal("a truncated answer was delivered as complete")
	}
}

// An answer that is not HTTP is the service's failure: UNAVAILABLE.
func TestProxyMalformedAnswerIsUnavailable(t *testing.T) {
	t.Parallel()
	e, _, _ := serviceWith(t, func(w http.ResponseWriter, r *http.Request) {
		conn, brw, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		_, _ = brw.WriteString("SMTP ready\r\n\r\n")
		_ = brw.Flush()
		_ = conn.Close()
	})
	resp, raw := e.post("/v2/users/get", `{"data":{}}`, creds...)
	wantError(t, resp, raw, api.Unavailable)
}

func TestReadResponseHeadRejectsSmuggling(t *testing.T) {
	t.Parallel()
	for name, head := range map[string]string{
		"two lengths":     "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n",
		"folded header":   "HTTP/1.1 200 OK\r\nX-A: 1\r\n folded\r\n\r\n",
		"gzip coding":     "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n",
		"negative length": "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
		"no status":       "HTTP/1.1 OK\r\n\r\n",
	} {
		if _, err := readResponseHead(bufio.NewReader(strings.NewReader(head)), http.Header{}, nil); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
