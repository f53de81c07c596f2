package gateway

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"
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

// A service handler that panics before taking the connection over frees
// its slot (the server aborts the connection, as for any handler).
func TestRealtimeHandOverPanicFreesTheSlot(t *testing.T) {
	t.Parallel()
	svc := http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic(http.ErrAbortHandler) })
	e := newEnvDeps(t, func(c *Config) { c.MaxRealtimeTunnels = 1 }, Deps{ContentRealtime: svc})
	t.Cleanup(e.gw.Close)
	for range 2 {
		req, err := http.NewRequest(http.MethodGet, e.srv.URL+"/v2/crdt/hocuspocus", nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i+1 < len(upgradeHeaders()); i += 2 {
			req.Header.Set(upgradeHeaders()[i], upgradeHeaders()[i+1])
		}
		if resp, err := e.srv.Client().Do(req); err == nil {
			_ = resp.Body.Close()
			t.Fatalf("an aborted handler answered %d", resp.StatusCode)
		}
		waitTunnels(t, e, 0)
	}
}
