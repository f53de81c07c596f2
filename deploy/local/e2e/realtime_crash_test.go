package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
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
	first := startProcess(t, bin, dataDir)
	creds := readCredentials(t, dataDir)
	gw := &stack{t: t, sys: &system.System{GatewayURL: first.url}, ws: creds}
	const org, doc, count = "org-kill", "doc-kill", 60
	token := gw.userToken("ada", docGrant(org, doc, "editor"))
	p := realtimetest.Start(t, "hpWriteAcked", map[string]any{
		"wsBase": "ws" + strings.TrimPrefix(first.url, "http"), "room": org + "/" + doc + "/ed1", "token": token, "count": count, "timeoutMs": 60000,
	})
	p.WaitStep("acked")
	first.kill()
	p.Send("end")
	written := p.Result()["text"].(string)

	gw.sys.GatewayURL = startProcess(t, bin, dataDir).url
	got := gw.editorText(org, doc, "ed1")
	for i := range count {
		if !strings.Contains(got, fmt.Sprintf("k%d;", i)) {
			t.Fatalf("acknowledged edit k%d; lost after kill -9: stored %q, the client had %q", i, got, written)
		}
	}
}

// localProcess is the local system binary running for a test.
type localProcess struct {
	cmd    *exec.Cmd
	url    string        // the gateway's, as the process's banner gives it
	out    bannerWatcher // stdout and stderr; read only once exited is closed
	exited chan struct{}
	err    error // of Wait, once exited is closed
}

// kill ends the process (SIGKILL: no shutdown at all) and waits for it.
func (p *localProcess) kill() {
	_ = p.cmd.Process.Kill()
	<-p.exited
}

// startProcess runs the local system binary on a port of the kernel's
// choosing and waits for the banner it prints once its gateway serves,
// which gives the address. A port picked by the test and handed to the
// process could be taken by a parallel test's system in between (after a
// kill -9 most of all), and a probe of it could then reach that other
// system. The process is killed at the end of the test; one that exits
// before its banner fails the test with its output.
func startProcess(t *testing.T, bin, dataDir string) *localProcess {
	t.Helper()
	p := &localProcess{cmd: exec.Command(bin), exited: make(chan struct{})}
	p.out.gateway = make(chan string, 1)
	// METRICS_ADDR off its :9090 default: other test binaries run the
	// same system at the same time.
	p.cmd.Env = append(os.Environ(), "DATA_DIR="+dataDir, "GATEWAY_ADDR=127.0.0.1:0", "METRICS_ADDR=127.0.0.1:0", "LOG_LEVEL=error", "RATE_LIMIT_PER_SECOND=0")
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.out
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(p.kill)
	select {
	case p.url = <-p.out.gateway:
		return p
	case <-p.exited:
		t.Fatalf("the local system exited while starting (%v):\n%s", p.err, p.out.buf.String())
	case <-time.After(90 * time.Second):
		p.kill()
		t.Fatalf("the local system printed no \"gateway <url>\" banner line in 90 s:\n%s", p.out.buf.String())
	}
	return nil
}

// bannerWatcher keeps a process's output and sends the gateway's URL once
// its banner's "gateway" line has come.
type bannerWatcher struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	seen    int // bytes of buf already looked at for whole lines
	gateway chan string
	sent    bool
}

func (w *bannerWatcher) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(b)
	for !w.sent {
		rest := w.buf.Bytes()[w.seen:]
		end := bytes.IndexByte(rest, '\n')
		if end < 0 {
			break
		}
		w.seen += end + 1
		if f := strings.Fields(string(rest[:end])); len(f) == 2 && f[0] == "gateway" && strings.HasPrefix(f[1], "http://") {
			w.gateway <- f[1]
			w.sent = true
		}
	}
	return len(b), nil
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
