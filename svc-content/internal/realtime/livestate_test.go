package realtime

import (
	"testing"

	"github.com/opencollab/backend/svc-content/realtimetest"
)

// TestLiveStateReachesStockClients: a broadcast reaches a y-websocket
// provider (message type 100) and a Hocuspocus provider (stateless) of the
// document; a stock provider without a handler keeps syncing.
func TestLiveStateReachesStockClients(t *testing.T) {
	srv := startServer(t, nil, nil, Settings{})
	p := realtimetest.Start(t, "liveState", map[string]any{
		"wsBase": srv.wsBase, "room": "org1/live1/ed1", "otherEditorRoom": "org1/live1/ed2", "token": "editor:ada",
	})
	p.WaitStep("ready")
	n, err := srv.hub.BroadcastLiveState(t.Context(), "ws1", "org1", "live1", `{"type":"liveState","liveStateDataId":"s1","data":{"status":"active"},"merge":true}`)
	if err != nil || n != 3 {
		t.Fatalf("broadcast reached %d clients, err %v; want the 3 connected", n, err)
	}
	r := p.Result()
	for _, who := range []string{"yws", "hp"} {
		got, _ := r[who].(map[string]any)
		if got["liveStateDataId"] != "s1" || got["data"].(map[string]any)["status"] != "active" || got["merge"] != true {
			t.Fatalf("%s received %v", who, r[who])
		}
	}
}
