package gateway

import (
	"bytes"
	"context"
	"crypto/rand"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
)

// wsService stands in for svc-content's realtime endpoints: it records
// each upgrade request, accepts it with a real WebSocket server and echoes
// every message; "close-me" makes it close with status 4001, "token=bad"
// in the query makes it refuse the upgrade with 401.
type wsService struct {
	srv *httptest.Server
	mu  sync.Mutex
	got []*http.Request
	// closed receives the close status each server side saw.
	closed chan websocket.StatusCode
}

const maxFrame = 8 << 20

func newWSService(t testing.TB) *wsService {
	s := &wsService{closed: make(chan websocket.StatusCode, 16)}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *wsService) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.got = append(s.got, r.Clone(context.Background()))
	s.mu.Unlock()
	if r.URL.Query().Get("token") == "bad" {
		api.WriteError(r.Context(), w, api.Errorf(api.PermissionDenied, "user token rejected"))
		return
	}
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	c.SetReadLimit(maxFrame)
	ctx := context.Background()
	for {
		typ, msg, err := c.Read(ctx)
		if err != nil {
			s.closed <- websocket.CloseStatus(err)
			return
		}
		if string(msg) == "close-me" {
			_ = c.Close(4001, "closed by the service")
			s.closed <- 4001
			return
		}
		if err := c.Write(ctx, typ, msg); err != nil {
			s.closed <- websocket.CloseStatus(err)
			return
		}
	}
}

func (s *wsService) last(t *testing.T) *http.Request {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.got) == 0 {
		t.Fatal("the service saw no request")
	}
	return s.got[len(s.got)-1]
}

// realtimeEnv is a gateway whose content service is a wsService.
func realtimeEnv(t *testing.T, maxTunnels int) (*env, *wsService) {
	t.Helper()
	ws := newWSService(t)
	e := newEnv(t, func(c *Config) {
		c.ContentURL = ws.srv.URL
		c.MaxRealtimeTunnels = maxTunnels
	})
	t.Cleanup(e.gw.Close)
	return e, ws
}

func wsURL(e *env, path string) string { return "ws" + strings.TrimPrefix(e.srv.URL, "http") + path }

func dial(t *testing.T, e *env, path string, h http.Header) *websocket.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, resp, err := websocket.Dial(ctx, wsURL(e, path), &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		t.Fatalf("dial %s: %v (%v)", path, err, resp)
	}
	c.SetReadLimit(maxFrame)
	t.Cleanup(func() { c.CloseNow() })
	return c
}

func echo(t *testing.T, c *websocket.Conn, typ websocket.MessageType, msg []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.Write(ctx, typ, msg); err != nil {
		t.Fatal(err)
	}
	gotTyp, got, err := c.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if gotTyp != typ || !bytes.Equal(got, msg) {
		t.Fatalf("echo: got %v of %d bytes, want %v of %d", gotTyp, len(got), typ, len(msg))
	}
}

// waitTunnels waits until the gateway has n open tunnels.
func waitTunnels(t *testing.T, e *env, n int64) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for e.gw.tunnels.active.Load() != n {
		if time.Now().After(deadline) {
			t.Fatalf("%d tunnels open, want %d", e.gw.tunnels.active.Load(), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// realtimeEnvs are both ways to the service: tunnelled to CONTENT_URL, or
// handed over to its handler in process.
var realtimeEnvs = []struct {
	name string
	make func(*testing.T, int) (*env, *wsService)
}{{"tunnel", realtimeEnv}, {"handover", handOverEnv}}

func TestRealtimeEchoSignedAndStripped(t *testing.T) {
	t.Parallel()
	for _, way := range realtimeEnvs {
		t.Run(way.name, func(t *testing.T) {
			e, ws := way.make(t, 10)
			for _, path := range []string{"/v2/crdt/sync/org-1/doc-1/editor-1?token=good", "/v2/crdt/hocuspocus"} {
				c := dial(t, e, path, forgedHeaders("rt-req-1"))
				echo(t, c, websocket.MessageText, []byte("hello through the gateway"))
				echo(t, c, websocket.MessageBinary, []byte{0, 1, 2, 3})
				waitTunnels(t, e, 1) // the slot is held while the connection lives

				checkUpgradeRequest(t, e, ws.last(t), path, "rt-req-1")
				if err := c.Close(websocket.StatusNormalClosure, ""); err != nil {
					t.Fatal(err)
				}
				waitTunnels(t, e, 0)
			}
			if n := len(e.up[svcContent].requests()); n != 0 {
				t.Fatalf("%d requests reached the default content stand-in", n)
			}
		})
	}
}

// forgedHeaders are a client's attempt to pass internal headers on.
func forgedHeaders(requestID string) http.Header {
	return http.Header{
		internalauth.HeaderPrincipal: {internalauth.Workspace("forged")},
		internalauth.HeaderSignature: {"forged"},
		"X-Svc-Api-Key":              {testKey},
		"X-Velt-Auth-Token":          {testToken},
		"X-Request-Id":               {requestID},
	}
}

// checkUpgradeRequest checks what the service got for an upgrade of path:
// the realtime principal, signed; none of the client's credentials or
// internal headers; the request id and the WebSocket key passed on.
func checkUpgradeRequest(t *testing.T, e *env, got *http.Request, path, requestID string) {
	t.Helper()
	if got.URL.RequestURI() != path {
		t.Fatalf("service got %s, want %s", got.URL.RequestURI(), path)
	}
	if p, err := e.signer.Verify(got.Header); err != nil || p != internalauth.RealtimeUpgrade {
		t.Fatalf("%s: principal %q, err %v", path, p, err)
	}
	if _, ok := internalauth.WorkspaceOf(internalauth.RealtimeUpgrade); ok {
		t.Fatal("the realtime principal must not name a workspace")
	}
	for name := range got.Header {
		if (strings.HasPrefix(name, "X-Svc-") && name != internalauth.HeaderPrincipal &&
			name != internalauth.HeaderTimestamp && name != internalauth.HeaderSignature) || strings.HasPrefix(name, "X-Velt-") {
			t.Fatalf("client header %s reached the service", name)
		}
	}
	if got.Header.Get("X-Request-Id") != requestID || got.Header.Get("Sec-Websocket-Key") == "" {
		t.Fatalf("request id or WebSocket key not passed on: %v", got.Header)
	}
}

func TestRealtimeLargeFrames(t *testing.T) {
	t.Parallel()
	e, _ := realtimeEnv(t, 10)
	c := dial(t, e, "/v2/crdt/sync/o/d/e", nil)
	big := make([]byte, 4<<20)
	_, _ = rand.Read(big)
	echo(t, c, websocket.MessageBinary, big)
	echo(t, c, websocket.MessageText, bytes.Repeat([]byte("y"), 300<<10))
	echo(t, c, websocket.MessageBinary, big[:1])
}

func TestRealtimeClientClose(t *testing.T) {
	t.Parallel()
	e, ws := realtimeEnv(t, 10)
	c := dial(t, e, "/v2/crdt/hocuspocus", nil)
	echo(t, c, websocket.MessageText, []byte("x"))
	waitTunnels(t, e, 1)
	if err := c.Close(websocket.StatusGoingAway, "tab closed"); err != nil {
		t.Fatal(err)
	}
	if got := <-ws.closed; got != websocket.StatusGoingAway {
		t.Fatalf("service saw close status %d, want %d", got, websocket.StatusGoingAway)
	}
	waitTunnels(t, e, 0)
}

// A client that drops its TCP connection without a close frame must not
// leave the service side open.
func TestRealtimeClientDrop(t *testing.T) {
	t.Parallel()
	e, ws := realtimeEnv(t, 10)
	c := dial(t, e, "/v2/crdt/sync/o/d/e", nil)
	echo(t, c, websocket.MessageText, []byte("x"))
	c.CloseNow()
	select {
	case <-ws.closed:
	case <-time.After(5 * time.Second):
		t.Fatal("the service side stayed open after the client dropped")
	}
	waitTunnels(t, e, 0)
}

func TestRealtimeServiceClose(t *testing.T) {
	t.Parallel()
	e, _ := realtimeEnv(t, 10)
	c := dial(t, e, "/v2/crdt/sync/o/d/e", nil)
	if err := c.Write(context.Background(), websocket.MessageText, []byte("close-me")); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, _, err := c.Read(ctx)
	if got := websocket.CloseStatus(err); got != 4001 {
		t.Fatalf("client saw %v (status %d), want the service's close 4001", err, got)
	}
	waitTunnels(t, e, 0)
}

func TestRealtimeCap(t *testing.T) {
	t.Parallel()
	for _, way := range realtimeEnvs {
		t.Run(way.name, func(t *testing.T) {
			e, _ := way.make(t, 1)
			first := dial(t, e, "/v2/crdt/sync/o/d/e", nil)
			echo(t, first, websocket.MessageText, []byte("x"))

			resp, raw := e.do(http.MethodGet, "/v2/crdt/hocuspocus", nil, upgradeHeaders()...)
			wantError(t, resp, raw, api.Unavailable)

			_ = first.Close(websocket.StatusNormalClosure, "")
			waitTunnels(t, e, 0)
			second := dial(t, e, "/v2/crdt/hocuspocus", nil)
			echo(t, second, websocket.MessageText, []byte("room again"))

			off, _ := way.make(t, 0)
			resp, raw = off.do(http.MethodGet, "/v2/crdt/hocuspocus", nil, upgradeHeaders()...)
			wantError(t, resp, raw, api.Unavailable)
		})
	}
}

// upgradeHeaders make a handshake the gateway recognises (a real client's
// key is not needed for a refusal).
func upgradeHeaders() []string {
	return []string{"Connection", "Upgrade", "Upgrade", "websocket", "Sec-WebSocket-Version", "13",
		"Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="}
}

func TestRealtimeNeedsUpgrade(t *testing.T) {
	t.Parallel()
	e, ws := realtimeEnv(t, 10)
	for _, path := range []string{"/v2/crdt/sync/o/d/e?token=x", "/v2/crdt/hocuspocus"} {
		resp, raw := e.do(http.MethodGet, path, nil)
		if msg := wantError(t, resp, raw, api.InvalidArgument); !strings.Contains(msg, "upgrade") {
			t.Fatalf("%s: message %q does not say an upgrade is needed", path, msg)
		}
	}
	// Other shapes and other methods keep the ordinary behaviour.
	for _, path := range []string{"/v2/crdt/sync/o/d", "/v2/crdt/sync/o/d/e/f", "/v2/crdt/hocuspocus/x", "/v2/users/get"} {
		resp, raw := e.do(http.MethodGet, path, nil, upgradeHeaders()...)
		if msg := wantError(t, resp, raw, api.InvalidArgument); !strings.Contains(msg, "every operation is POST") {
			t.Fatalf("GET %s: %q", path, msg)
		}
	}
	resp, raw := e.post("/v2/crdt/hocuspocus", `{"data":{}}`)
	wantError(t, resp, raw, api.PermissionDenied)
	resp, raw = e.do(http.MethodGet, "/v2/crdt//sync/o/d", nil, upgradeHeaders()...)
	wantError(t, resp, raw, api.NotFound)
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if len(ws.got) != 0 {
		t.Fatalf("%d refused requests reached the service", len(ws.got))
	}
}

func TestRealtimeServiceRefusal(t *testing.T) {
	t.Parallel()
	for _, way := range realtimeEnvs {
		t.Run(way.name, func(t *testing.T) {
			e, _ := way.make(t, 10)
			resp, raw := e.do(http.MethodGet, "/v2/crdt/sync/o/d/e?token=bad", nil, upgradeHeaders()...)
			wantError(t, resp, raw, api.PermissionDenied)
			if resp.Header.Get("X-Request-Id") == "" {
				t.Fatal("the refusal carries no request id")
			}
			waitTunnels(t, e, 0)
		})
	}
}

func TestRealtimeRoutesListed(t *testing.T) {
	t.Parallel()
	want := map[string]bool{"/v2/crdt/sync/{org}/{doc}/{editor}": false, "/v2/crdt/hocuspocus": false}
	for _, r := range Routes() {
		if _, ok := want[r.Path]; ok && r.Method == http.MethodGet && r.Service == string(svcContent) && r.Auth == "realtime" {
			want[r.Path] = true
		}
	}
	for p, ok := range want {
		if !ok {
			t.Fatalf("route listing lacks GET %s", p)
		}
	}
}

func TestMatchPattern(t *testing.T) {
	t.Parallel()
	const sync = "/v2/crdt/sync/{org}/{doc}/{editor}"
	for path, want := range map[string]bool{
		"/v2/crdt/sync/a/b/c": true, "/v2/crdt/sync/a/b": false, "/v2/crdt/sync/a/b/c/": false,
		"/v2/crdt/sync/a/b/c/d": false, "/v2/crdt/sync//b/c": false, "/v2/crdt/syncx/a/b/c": false, "/v2/crdt/sync": false,
	} {
		if got := matchPattern(sync, path); got != want {
			t.Errorf("matchPattern(%q) = %v, want %v", path, got, want)
		}
	}
	if !matchPattern("/v2/crdt/hocuspocus", "/v2/crdt/hocuspocus") || matchPattern("/v2/crdt/hocuspocus", "/v2/crdt/hocuspocus/") {
		t.Fatal("exact pattern")
	}
}
