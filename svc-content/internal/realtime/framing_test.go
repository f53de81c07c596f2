package realtime

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/opencollab/backend/svc-content/internal/realtime/yproto"
)

// Relays of every frame length form (7-bit, 16-bit, 64-bit, the last
// written on their own past batchFlushAt) reach a stock WebSocket client
// whole and in order.
func TestRelaysOfEverySizeArriveWhole(t *testing.T) {
	t.Parallel()
	srv := startServer(t, nil, nil, Settings{})
	key := DocKey{"ws1", "org1", "sizes", "ed1"}
	sender := rawClient(t, srv.wsBase, "org1/sizes/ed1", "editor:ada", 0)
	receiver := rawClient(t, srv.wsBase, "org1/sizes/ed1", "editor:bob", 0)
	waitMembers(t, srv.hub, key, 2)
	sizes := []int{10, 1000, 70_000, 200_000}
	for i, n := range sizes {
		sendText(t, sender, uint64(500+i), strings.Repeat(string(rune('a'+i)), n))
	}
	_ = receiver.SetReadDeadline(time.Now().Add(20 * time.Second))
	for i := 0; i < len(sizes); {
		_, msg, err := receiver.ReadMessage()
		if err != nil {
			t.Fatalf("relay %d: %v", i, err)
		}
		if len(msg) < 2 || msg[0] != ywsSync || msg[1] != yproto.SyncUpdate {
			continue // the greeting: sync step 1, awareness
		}
		want := bytes.Repeat([]byte{byte('a' + i)}, sizes[i])
		if !bytes.Contains(msg, want) {
			t.Fatalf("relay %d (%d bytes) does not hold the %d characters sent", i, len(msg), sizes[i])
		}
		i++
	}
}
