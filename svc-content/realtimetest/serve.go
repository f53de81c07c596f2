package realtimetest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// Hub is what ServeHub needs of a realtime hub (realtime.Hub; an
// interface, since the hub's own tests use this package).
type Hub interface {
	Run()
	ServeYWebsocket(w http.ResponseWriter, r *http.Request, org, doc, editor string)
	ServeHocuspocus(w http.ResponseWriter, r *http.Request)
	Close(ctx context.Context)
}

// ServeHub runs hub and serves both its protocols on a loopback server at
// the gateway's paths; it returns the server's ws:// base. The hub and
// the server are closed when the test ends.
func ServeHub(t testing.TB, hub Hub) string {
	t.Helper()
	hub.Run()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v2/crdt/sync/{org}/{doc}/{editor}", func(w http.ResponseWriter, r *http.Request) {
		hub.ServeYWebsocket(w, r, r.PathValue("org"), r.PathValue("doc"), r.PathValue("editor"))
	})
	mux.HandleFunc("GET /v2/crdt/hocuspocus", hub.ServeHocuspocus)
	srv := httptest.NewServer(mux)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hub.Close(ctx)
		srv.Close()
	})
	return WSBase(srv.URL)
}
