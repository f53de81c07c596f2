package realtime

import (
	"bytes"
	"testing"

	"github.com/opencollab/backend/svc-content/realtimetest"
)

// A client may send its first frame right behind the upgrade request:
// the HTTP server has read it with the request, and the connection must
// still get it (the WebSocket library alone refuses such bytes, and the
// frames are read from the socket, not from the server's reader).
func TestFrameSentWithTheUpgradeRequestIsRead(t *testing.T) {
	t.Parallel()
	srv := startServer(t, nil, nil, Settings{})
	c := realtimetest.PipelinedAuth(t, srv.wsBase, "org1/doc1/ed1", "editor:ada")
	op, got, err := c.Next()
	if err != nil || op != opBinary {
		t.Fatalf("no answer to the pipelined Auth message: op %d, %v", op, err)
	}
	if want := realtimetest.AuthenticatedMessage("org1/doc1/ed1"); !bytes.Equal(got, want) {
		t.Fatalf("first message %q, want %q", got, want)
	}
	if want := (hpFramer{addr: "org1/doc1/ed1"}).authenticated(false); !bytes.Equal(got, want) {
		t.Fatalf("the test's Authenticated %q differs from the codec's %q", got, want)
	}
}
