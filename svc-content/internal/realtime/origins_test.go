package realtime

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/opencollab/backend/pkg/origins"
	"github.com/opencollab/backend/svc-content/realtimetest"
)

// fakeOrigins allows ws1 the listed domains; any other workspace's lookup
// fails when down is set.
type fakeOrigins struct {
	ws1  []string
	down bool
}

func (f fakeOrigins) AllowsOrigin(_ context.Context, ws, origin string) (bool, error) {
	if f.down {
		return false, errors.New("svc-workspace is unreachable")
	}
	if ws != "ws1" {
		return true, nil
	}
	return origins.Allowed(f.ws1, origin), nil
}

func originServer(t *testing.T, o OriginPolicy) *testServer {
	t.Helper()
	return serveHub(t, NewHub(Options{Store: NewMemoryStore(), Access: fakeAccess{}, Origins: o}))
}

// dialYWS opens a y-websocket connection with origin and returns the close
// it gets, or code 0 when the server sent the document's first message.
func dialYWS(t *testing.T, srv *testServer, origin string) (int, string) {
	t.Helper()
	h := http.Header{}
	if origin != "" {
		h.Set("Origin", origin)
	}
	ws, _, err := websocket.DefaultDialer.Dial(srv.wsBase+"/v2/crdt/sync/org1/doc1/ed1?token=editor:ann", h)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	_, _, err = ws.ReadMessage()
	var ce *websocket.CloseError
	if errors.As(err, &ce) {
		return ce.Code, ce.Text
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, ""
}

// TestOriginOutsideAllowedDomainsIsRefused: with a non-empty list, an
// Origin outside it gets 4403 with the reason before any content; inside
// it, or without an Origin (not a browser), the document opens.
func TestOriginOutsideAllowedDomainsIsRefused(t *testing.T) {
	t.Parallel()
	srv := originServer(t, fakeOrigins{ws1: []string{"app.example.com", "localhost:3000"}})
	for origin, want := range map[string]int{
		"https://app.example.com": 0, "http://localhost:3000": 0, "": 0,
		"https://evil.example": CloseForbidden, "http://localhost:3001": CloseForbidden, "null": CloseForbidden,
	} {
		code, reason := dialYWS(t, srv, origin)
		if code != want {
			t.Errorf("Origin %q: close %d (%s), want %d", origin, code, reason, want)
		}
		if want != 0 && !strings.Contains(reason, "is not among the workspace's allowed domains") {
			t.Errorf("Origin %q: reason %q does not say why", origin, reason)
		}
	}
}

// TestOriginLookupFailureRefusesWithRetry: when the allowed domains cannot
// be read the connection is refused as undecided (fail closed), not let in.
func TestOriginLookupFailureRefusesWithRetry(t *testing.T) {
	t.Parallel()
	srv := originServer(t, fakeOrigins{down: true})
	if code, reason := dialYWS(t, srv, "https://app.example.com"); code != CloseInternal || !strings.Contains(reason, "retry") {
		t.Fatalf("lookup down: close %d (%s), want %d", code, reason, CloseInternal)
	}
}

// TestOriginWithStockClients: stock y-websocket and @hocuspocus/provider
// over the ws package with an Origin header.
func TestOriginWithStockClients(t *testing.T) {
	t.Parallel()
	srv := originServer(t, fakeOrigins{ws1: []string{"*.example.com"}})
	realtimetest.Run(t, "origin", map[string]any{
		"wsBase": srv.wsBase, "room": "org1/doc2/ed1", "token": "editor:ann",
		"allowed": "https://app.example.com", "refused": "https://example.org",
	})
}
