package gateway

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/opencollab/backend/pkg/api"
)

// Shutdown as cmd/gateway does it: the HTTP server drains (an open tunnel
// does not hold it up and keeps working meanwhile), then Close ends every
// tunnel, and later upgrades are refused with UNAVAILABLE.
func TestRealtimeShutdownAfterDrain(t *testing.T) {
	t.Parallel()
	e, ws := realtimeEnv(t, 10)
	srv, err := ListenInbound(testInbound, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, e.gw.Handler()) }()

	url := "ws://" + srv.Addr() + "/v2/crdt/sync/o/d/e"
	dctx, dcancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer dcancel()
	c, _, err := websocket.Dial(dctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	echo(t, c, websocket.MessageText, []byte("before shutdown"))

	cancel()
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the HTTP drain waited for the tunnel")
	}
	echo(t, c, websocket.MessageText, []byte("after the drain, before Close"))

	e.gw.Close()
	rctx, rcancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer rcancel()
	if _, _, err := c.Read(rctx); err == nil || rctx.Err() != nil {
		t.Fatalf("tunnel still open after Close: %v", err)
	}
	select {
	case <-ws.closed:
	case <-time.After(5 * time.Second):
		t.Fatal("the service side stayed open after Close")
	}
	if n := e.gw.tunnels.active.Load(); n != 0 {
		t.Fatalf("%d tunnels left after Close", n)
	}
	resp, raw := e.do(http.MethodGet, "/v2/crdt/hocuspocus", nil, upgradeHeaders()...)
	if msg := wantError(t, resp, raw, api.Unavailable); !strings.Contains(msg, "shutting down") {
		t.Fatalf("upgrade after Close: %q", msg)
	}
}
