package realtime

import (
	"strings"
	"testing"

	"github.com/opencollab/backend/svc-content/realtimetest"
)

// A document over its connection limit refuses the next session with
// 4429 and a reason that names the limit; other documents are not
// affected.
func TestDocumentConnectionLimit(t *testing.T) {
	t.Parallel()
	srv := startServer(t, nil, nil, Settings{MaxPerDocument: 1})
	first := realtimetest.Start(t, "watch", map[string]any{"wsBase": srv.wsBase, "room": "org1/lim/ed1", "token": "editor:ada", "expect": "never", "waitMs": 60000, "timeoutMs": 90000})
	first.WaitStep("synced")
	r := realtimetest.Run(t, "refused", map[string]any{"wsBase": srv.wsBase, "room": "org1/lim/ed1", "token": "editor:bob", "expectCode": CloseTooManySessions})
	closed, _ := r["close"].(map[string]any)
	if reason, _ := closed["reason"].(string); !strings.Contains(reason, "document connection limit") {
		t.Errorf("close reason %q does not name the limit", reason)
	}
	realtimetest.Run(t, "read", map[string]any{"wsBase": srv.wsBase, "room": "org1/lim/other", "token": "editor:bob"})
	// The first client's own result is not awaited: it waits for a text
	// that never comes; only its open connection mattered.
}
