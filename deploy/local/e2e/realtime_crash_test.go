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
	first.kill()
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

// localProcess is the local system binary running for a test.
type localProcess struct {
	cmd    *exec.Cmd
	out    bytes.Buffer // read only once exited is closed
	exited chan struct{}
	err    error // of Wait, once exited is closed
}

// kill ends the process (SIGKILL: no shutdown at all) and waits for it.
func (p *localProcess) kill() {
	_ = p.cmd.Process.Kill()
	<-p.exited
}

// startProcess runs the local system binary and waits until its gateway
// answers; the process is killed at the end of the test. A process that
// exits before its gateway answered fails the test with its output (the
// port freeAddr picked taken meanwhile, say), where it used to wait out
// the deadline or, with the probe answered by whatever took the port, go
// on against another system.
func startProcess(t *testing.T, bin, dataDir, addr string) *localProcess {
	t.Helper()
	p := &localProcess{cmd: exec.Command(bin), exited: make(chan struct{})}
	// METRICS_ADDR off its :9090 default: other test binaries run the
	// same system at the same time.
	p.cmd.Env = append(os.Environ(), "DATA_DIR="+dataDir, "GATEWAY_ADDR="+addr, "METRICS_ADDR=127.0.0.1:0", "LOG_LEVEL=error", "RATE_LIMIT_PER_SECOND=0")
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.out
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(p.kill)
	// A timeout per probe: a listener that is not a gateway may never answer.
	probe := &http.Client{Timeout: 2 * time.Second}
	for deadline := time.Now().Add(90 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		select {
		case <-p.exited:
			t.Fatalf("the local system exited while starting (%v):\n%s", p.err, p.out.String())
		default:
		}
		if resp, err := probe.Get("http://" + addr + "/healthz"); err == nil {
			resp.Body.Close()
			return p
		}
	}
	p.kill()
	t.Fatalf("the local system did not start:\n%s", p.out.String())
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
