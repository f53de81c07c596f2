package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opencollab/backend/deploy/local/internal/localproc"
	"github.com/opencollab/backend/deploy/local/system"
	"github.com/opencollab/backend/svc-content/realtimetest"
)

// kill -9 of the whole stack (one process, embedded FerretDB on SQLite)
// right after a Hocuspocus client was told its edits are saved: after a
// restart on the same data every acknowledged edit is there.
func TestRealtimeAcknowledgedEditsSurviveKill9(t *testing.T) {
	t.Parallel()
	bin, err := localproc.Binary(t.Context(), t.TempDir())
	if err != nil {
		t.Fatalf("build the local system: %v", err)
	}
	o := localproc.Options{Bin: bin, DataDir: t.TempDir(), Log: filepath.Join(t.TempDir(), "local.log")}
	first := startLocal(t, o)
	gw := &stack{t: t, sys: &system.System{GatewayURL: first.URL}, ws: creds{localproc.APIKey, localproc.AuthToken}}
	const org, doc, count = "org-kill", "doc-kill", 60
	token := gw.userToken("ada", docGrant(org, doc, "editor"))
	p := realtimetest.Start(t, "hpWriteAcked", map[string]any{
		"wsBase": "ws" + strings.TrimPrefix(first.URL, "http"), "room": org + "/" + doc + "/ed1", "token": token, "count": count, "timeoutMs": 60000,
	})
	p.WaitStep("acked")
	first.Kill()
	p.Send("end")
	written := p.Result()["text"].(string)

	gw.sys.GatewayURL = startLocal(t, o).URL
	got := gw.editorText(org, doc, "ed1")
	for i := range count {
		if !strings.Contains(got, fmt.Sprintf("k%d;", i)) {
			t.Fatalf("acknowledged edit k%d; lost after kill -9: stored %q, the client had %q", i, got, written)
		}
	}
}

// startLocal runs the local system binary on a port of the kernel's
// choosing (localproc learns it from the process) and kills it at the end
// of the test.
func startLocal(t *testing.T, o localproc.Options) *localproc.Proc {
	t.Helper()
	p, err := localproc.Start(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Kill)
	return p
}
