package gateway

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/opencollab/backend/pkg/internalauth"
)

// handOverEnv is a gateway whose content service runs "in process": ws's
// handler is Deps.ContentRealtime, and CONTENT_URL stays the recording
// stand-in, which a tunnel would reach.
func handOverEnv(t *testing.T, maxTunnels int) (*env, *wsService) {
	t.Helper()
	ws := newWSService(t)
	e := newEnvDeps(t, func(c *Config) { c.MaxRealtimeTunnels = maxTunnels },
		Deps{ContentRealtime: http.HandlerFunc(ws.serve)})
	t.Cleanup(e.gw.Close)
	return e, ws
}

func TestRealtimeHandOverSignsStripsAndCounts(t *testing.T) {
	t.Parallel()
	e, ws := handOverEnv(t, 10)
	forged := http.Header{
		internalauth.HeaderPrincipal: {internalauth.Workspace("forged")},
		internalauth.HeaderSignature: {"forged"},
		"X-Svc-Api-Key":              {testKey},
		"X-Velt-Auth-Token":          {testToken},
		"X-Request-Id":               {"rt-req-2"},
	}
	for _, path := range []string{"/v2/crdt/sync/org-1/doc-1/editor-1?token=good", "/v2/crdt/hocuspocus"} {
		c := dial(t, e, path, forged)
		echo(t, c, websocket.MessageBinary, []byte("handed over"))
		waitTunnels(t, e, 1) // the slot is held while the connection lives
		got := ws.last(t)
		if got.URL.RequestURI() != path {
			t.Fatalf("service got %s, want %s", got.URL.RequestURI(), path)
		}
		if p, err := e.signer.Verify(got.Header); err != nil || p != internalauth.RealtimeUpgrade {
			t.Fatalf("%s: principal %q, err %v", path, p, err)
		}
		for name := range got.Header {
			if (strings.HasPrefix(name, "X-Svc-") && name != internalauth.HeaderPrincipal &&
				name != internalauth.HeaderTimestamp && name != internalauth.HeaderSignature) || strings.HasPrefix(name, "X-Velt-") {
				t.Fatalf("client header %s reached the service", name)
			}
		}
		if got.Header.Get("X-Request-Id") != "rt-req-2" || got.Header.Get("Sec-Websocket-Key") == "" {
			t.Fatalf("request id or WebSocket key not passed on: %v", got.Header)
		}
		if err := c.Close(websocket.StatusNormalClosure, ""); err != nil {
			t.Fatal(err)
		}
		waitTunnels(t, e, 0) // the service closed the socket: the slot is free
	}
	if n := len(e.up[svcContent].requests()); n != 0 {
		t.Fatalf("%d requests reached CONTENT_URL: the upgrade was tunnelled, not handed over", n)
	}
}

// A refusal of the service reaches the client as is, and frees the slot.
func TestRealtimeHandOverRefusal(t *testing.T) {
	t.Parallel()
	e, _ := handOverEnv(t, 10)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, resp, err := websocket.Dial(ctx, wsURL(e, "/v2/crdt/sync/o/d/e?token=bad"), nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("refused upgrade: %v %v", resp, err)
	}
	if resp.Header.Get("X-Request-Id") == "" {
		t.Fatal("the refusal carries no request id")
	}
	waitTunnels(t, e, 0)
}

// Handed-over connections count against MAX_REALTIME_TUNNELS until closed.
func TestRealtimeHandOverLimit(t *testing.T) {
	t.Parallel()
	e, _ := handOverEnv(t, 1)
	first := dial(t, e, "/v2/crdt/hocuspocus", nil)
	echo(t, first, websocket.MessageText, []byte("x"))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, resp, err := websocket.Dial(ctx, wsURL(e, "/v2/crdt/hocuspocus"), nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("upgrade over the limit: %v %v", resp, err)
	}
	_ = first.Close(websocket.StatusNormalClosure, "")
	waitTunnels(t, e, 0)
	echo(t, dial(t, e, "/v2/crdt/hocuspocus", nil), websocket.MessageText, []byte("y"))
}

// The service gets the client's own socket (its descriptor, which the
// realtime service polls) and the bytes the client sent right behind the
// upgrade request, which the gateway's server read along with it.
func TestRealtimeHandOverPipelinedBytesAndSocket(t *testing.T) {
	t.Parallel()
	polled := make(chan bool, 1)
	svc := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, brw, err := http.NewResponseController(w).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		defer c.Close()
		_, isSys := c.(syscall.Conn)
		polled <- isSys
		early := make([]byte, len("early bytes"))
		if _, err := io.ReadFull(brw.Reader, early); err != nil {
			t.Error(err)
			return
		}
		_, _ = c.Write(append([]byte("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"), early...))
	})
	e := newEnvDeps(t, func(c *Config) { c.MaxRealtimeTunnels = 10 }, Deps{ContentRealtime: svc})
	t.Cleanup(e.gw.Close)
	c, err := net.Dial("tcp", strings.TrimPrefix(e.srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	req := "GET /v2/crdt/hocuspocus HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\nearly bytes"
	if _, err := c.Write([]byte(req)); err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("upgrade: %v %v", resp, err)
	}
	got, err := io.ReadAll(br)
	if string(got) != "early bytes" {
		t.Fatalf("the service read %q (%v), want the bytes sent behind the request", got, err)
	}
	if !<-polled {
		t.Fatal("the handed-over connection hides its descriptor (no syscall.Conn)")
	}
	waitTunnels(t, e, 0)
}
