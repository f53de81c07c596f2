// Package realtimetest runs the stock-client scenarios of
// tools/realtimecheck (y-websocket, @hocuspocus/provider, TipTap in jsdom)
// under node against a realtime endpoint. Without node or the installed
// packages (scripts/test.sh installs them) a test is skipped, or fails
// when CI=true.
package realtimetest

import (
	"github.com/opencollab/backend/pkg/nodetool"

	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Result is a scenario's last line: ok, problems and what it reports.
type Result map[string]any

// OK reports whether the scenario passed.
func (r Result) OK() bool { ok, _ := r["ok"].(bool); return ok }

// Proc is a running scenario.
type Proc struct {
	t      *testing.T
	name   string
	lines  chan map[string]any
	stderr *bytes.Buffer
	stdin  io.WriteCloser
	done   chan struct{}
}

// Start runs scenario with cfg (encoded as JSON) in the background.
func Start(t *testing.T, scenario string, cfg any) *Proc {
	t.Helper()
	dir := checkDir(t)
	raw, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), "node", filepath.Join(dir, "run.mjs"), scenario, string(raw))
	p := &Proc{t: t, name: scenario, lines: make(chan map[string]any, 16), stderr: &bytes.Buffer{}, done: make(chan struct{})}
	cmd.Stderr = p.stderr
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start node: %v", err)
	}
	go func() {
		defer close(p.done)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			var line map[string]any
			if json.Unmarshal(sc.Bytes(), &line) == nil {
				p.lines <- line
			}
		}
		_ = cmd.Wait()
		close(p.lines)
	}()
	return p
}

// WaitStep waits for the progress line {"step": step}.
func (p *Proc) WaitStep(step string) {
	p.t.Helper()
	for line := range p.lines {
		if line["step"] == step {
			return
		}
		if _, last := line["ok"]; last {
			p.t.Fatalf("scenario %s ended before step %q: %v\n%s", p.name, step, line, p.stderr)
		}
	}
	p.t.Fatalf("scenario %s ended before step %q\n%s", p.name, step, p.stderr)
}

// Send writes a line to the scenario's standard input.
func (p *Proc) Send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.stdin, line+"\n"); err != nil {
		p.t.Fatalf("scenario %s: write stdin: %v", p.name, err)
	}
}

// Result waits for the scenario's result and fails the test if it did not
// pass.
func (p *Proc) Result() Result {
	p.t.Helper()
	var last map[string]any
	timeout := time.After(2 * time.Minute)
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				if last == nil {
					p.t.Fatalf("scenario %s printed no result\n%s", p.name, p.stderr)
				}
				r := Result(last)
				if !r.OK() {
					p.t.Errorf("scenario %s failed: %v", p.name, r["problems"])
				}
				return r
			}
			if _, res := line["ok"]; res {
				last = line
			}
		case <-timeout:
			p.t.Fatalf("scenario %s did not finish\n%s", p.name, p.stderr)
		}
	}
}

// Run runs a scenario to its end and returns its result (failing the test
// when it did not pass).
func Run(t *testing.T, scenario string, cfg any) Result {
	t.Helper()
	return Start(t, scenario, cfg).Result()
}

// checkDir finds tools/realtimecheck and makes sure node can run it.
func checkDir(t *testing.T) string {
	t.Helper()
	return nodetool.Dir(t, "realtimecheck", "y-websocket")
}

// WSBase turns an http:// test server URL into its ws:// base.
func WSBase(httpURL string) string { return "ws" + strings.TrimPrefix(httpURL, "http") }
