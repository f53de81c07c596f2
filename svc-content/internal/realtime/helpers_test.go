package realtime

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/opencollab/backend/svc-content/realtimetest"
)

// fakeAccess decides tokens of the form "<role>:<user>" (role editor,
// viewer or none); "expired" and anything else are bad tokens.
type fakeAccess struct{}

func (fakeAccess) Check(_ context.Context, token, org, doc string) (Grant, error) {
	role, user, ok := strings.Cut(token, ":")
	if !ok {
		return Grant{}, &Denial{Unauthenticated: true, Reason: "token is malformed"}
	}
	switch role {
	case "editor", "viewer":
		return Grant{Workspace: "ws1", UserID: user, Role: Role(role), ExpiresAt: time.Now().Add(time.Hour)}, nil
	case "none":
		return Grant{}, &Denial{Reason: "the token grants no access to document " + doc}
	}
	return Grant{}, &Denial{Unauthenticated: true, Reason: "token is invalid"}
}

// testServer serves both protocols of a hub on a loopback test server.
type testServer struct {
	hub    *Hub
	store  *MemoryStore
	wsBase string
}

func startServer(t *testing.T, store *MemoryStore, rdb *redis.Client, s Settings) *testServer {
	t.Helper()
	if store == nil {
		store = NewMemoryStore()
	}
	srv := serveHub(t, NewHub(Options{Store: store, Access: fakeAccess{}, Redis: rdb, Settings: s}))
	srv.store = store
	return srv
}

// serveHub runs hub and serves both its protocols on a loopback server.
func serveHub(t testing.TB, hub *Hub) *testServer {
	t.Helper()
	return &testServer{hub: hub, wsBase: realtimetest.ServeHub(t, hub)}
}
