package realtime

import (
	"testing"

	"github.com/opencollab/backend/svc-content/realtimetest"
)

// Two TipTap editors (one on y-websocket, one on Hocuspocus) on a seeded
// document converge on concurrent typing.
func TestTipTapEditorsConverge(t *testing.T) {
	t.Parallel()
	srv := startServer(t, nil, nil, Settings{})
	r := realtimetest.Run(t, "tiptap", map[string]any{
		"wsBase": srv.wsBase, "room": "org1/tiptap/default-editor", "tokens": []string{"editor:ada", "editor:bob"},
	})
	t.Logf("converged on %v", r["html"])
}
