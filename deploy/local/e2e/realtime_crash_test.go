package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
	dataDir := t.TempDir()
	addr := freeAddr(t)
	first := startProcess(t, bin, dataDir, addr)
	creds := readCredentials(t, dataDir)
	gw := &stack{t: t, sys: &system.System{GatewayURL: "http://" + addr}, ws: creds}
	const org, doc, count = "org-kill", "doc-kill", 60
	token := gw.userToken("ada", docGrant(org, doc, "editor"))
	p := realtimetest.Start(t, "hpWriteAcked", map[string]any{
		"wsBase": "ws://" + addr, "room": org + "/" + doc + "/ed1", "token": token, "count": count, "timeoutMs": 60000,
	})
	p.WaitStep("acked")
	if err := first.Process.Kill(); err != nil { // SIGKILL: no shutdown at all
		t.Fatal(err)
	}
	_ = first.Wait()
	p.Send("end")
	written := p.Result()["text"].(string)

	startProcess(t, bin, dataDir, addr)
	got := gw.editorText(org, doc, "ed1")
	for i := range count {
		if !strings.Contains(got, fmt.Sprintf("k%d;", i)) {
			t.Fatalf("acknowledged edit k%d; lost after kill -9: stored %q, the client had %q", i, got, written)
		}
	}
}

func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startProcess runs the local system binary and waits until its gateway
// answers; the process is killed at the end of the test.
func startProcess(t *testing.T, bin, dataDir, addr string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(bin)
	// METRICS_ADDR off its :9090 default: other test binaries run the
	// same system at the same time.
	cmd.Env = append(os.Environ(), "DATA_DIR="+dataDir, "GATEWAY_ADDR="+addr, "METRICS_ADDR=127.0.0.1:0", "LOG_LEVEL=error", "RATE_LIMIT_PER_SECOND=0")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := http.Get("http://" + addr + "/healthz"); err == nil {
			resp.Body.Close()
			return cmd
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("the local system did not start:\n%s", out.String())
	return nil
}

func readCredentials(t *testing.T, dataDir string) creds {
	raw, err := os.ReadFile(filepath.Join(dataDir, "local-credentials.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c system.Credentials
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	return creds{apiKey: c.APIKey, authToken: c.AuthToken}
}
