package realtime

import (
	"strings"
	"testing"

	"github.com/opencollab/backend/svc-content/realtimetest"
)

func TestHocuspocusMultiplexedConvergeAndAcks(t *testing.T) {
	t.Parallel()
	srv := startServer(t, nil, nil, Settings{})
	realtimetest.Run(t, "hpConverge", map[string]any{
		"wsBase": srv.wsBase, "room": "org1/hp1/ed1", "otherRoom": "org1/hp1/ed2", "tokens": []string{"editor:ada", "editor:bob"},
	})
}

func TestHocuspocusRefusedTokenOthersGoOn(t *testing.T) {
	t.Parallel()
	srv := startServer(t, nil, nil, Settings{})
	for _, tc := range []struct{ name, token, reason string }{
		{"bad token", "garbage", "malformed"},
		{"no access", "none:eve", "no access"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := realtimetest.Run(t, "hpRefused", map[string]any{
				"wsBase": srv.wsBase, "room": "org1/hp2/ed1", "otherRoom": "org1/hp2/ed2", "badToken": tc.token, "goodToken": "editor:ada",
			})
			if reason, _ := r["reason"].(string); !strings.Contains(reason, tc.reason) {
				t.Errorf("reason %q, want it to say %q", reason, tc.reason)
			}
		})
	}
}

func TestHocuspocusViewerIsReadOnly(t *testing.T) {
	t.Parallel()
	srv := startServer(t, nil, nil, Settings{})
	realtimetest.Run(t, "hpViewer", map[string]any{
		"wsBase": srv.wsBase, "room": "org1/hp3/ed1", "editorToken": "editor:ada", "viewerToken": "viewer:vic",
	})
}

func TestHocuspocusAndYWebsocketConverge(t *testing.T) {
	t.Parallel()
	srv := startServer(t, nil, nil, Settings{})
	realtimetest.Run(t, "mixed", map[string]any{
		"wsBase": srv.wsBase, "room": "org1/hp4/ed1", "tokens": []string{"editor:ada", "editor:bob"},
	})
}

func TestHocuspocusStateless(t *testing.T) {
	t.Parallel()
	srv := startServer(t, nil, nil, Settings{})
	realtimetest.Run(t, "stateless", map[string]any{
		"wsBase": srv.wsBase, "room": "org1/hp5/ed1", "tokens": []string{"editor:ada", "viewer:vic"},
	})
}
