// Package yjstest checks Yjs updates with the real yjs library: it runs
// the scripts of tools/yjscheck (at the repository root) under node.
package yjstest

import (
	"github.com/opencollab/backend/pkg/nodetool"

	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"testing"
)

// Case is one document: its successive full updates (version 1, 2, ...)
// and the content the last one must read back as (text and xml: a string,
// map and array: the JSON value).
type Case struct {
	Name       string
	Type       string
	ContentKey string
	Updates    [][]byte
	Expected   any
}

type wireCase struct {
	Name       string   `json:"name"`
	Type       string   `json:"type"`
	ContentKey string   `json:"contentKey"`
	Updates    []string `json:"updates"`
	Expected   any      `json:"expected"`
}

// Check runs every case through check.mjs and fails t for each case yjs
// reads differently. Without node or the installed yjs package (scripts/
// test.sh installs it) the test is skipped, or fails when CI=true.
func Check(t *testing.T, cases []Case) {
	t.Helper()
	script := scriptPath(t)
	var in bytes.Buffer
	for _, c := range cases {
		w := wireCase{Name: c.Name, Type: c.Type, ContentKey: c.ContentKey, Expected: c.Expected}
		for _, u := range c.Updates {
			w.Updates = append(w.Updates, base64.StdEncoding.EncodeToString(u))
		}
		line, err := json.Marshal(w)
		if err != nil {
			t.Fatalf("encode case %s: %v", c.Name, err)
		}
		in.Write(append(line, '\n'))
	}
	cmd := exec.CommandContext(t.Context(), "node", script)
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("run node %s: %v\n%s", script, err, stderr.String())
	}
	report(t, out, len(cases))
	if err != nil {
		t.Fatalf("check.mjs failed: %v\n%s", err, stderr.String())
	}
}

// report fails t for every case check.mjs did not pass, and when it did
// not report every case.
func report(t *testing.T, out []byte, want int) {
	t.Helper()
	passed := 0
	for _, line := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		var r struct {
			Name string `json:"name"`
			OK   *bool  `json:"ok"`
		}
		if json.Unmarshal(line, &r) != nil || r.OK == nil {
			continue // the summary line
		}
		if *r.OK {
			passed++
			continue
		}
		t.Errorf("yjs reads case %q differently: %s", r.Name, line)
	}
	if passed != want && !t.Failed() {
		t.Fatalf("check.mjs passed %d of %d cases:\n%s", passed, want, out)
	}
}

// Run runs tools/yjscheck/<script> under node with args and stdin, and
// returns its standard output; it fails t when the script fails. Without
// node or the installed yjs package the test is skipped, or fails when
// CI=true.
func Run(t *testing.T, script string, stdin []byte, args ...string) []byte {
	t.Helper()
	path := filepath.Join(filepath.Dir(scriptPath(t)), script)
	cmd := exec.CommandContext(t.Context(), "node", append([]string{path}, args...)...)
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %s: %v\n%s", script, err, stderr.String())
	}
	return out
}

// scriptPath finds tools/yjscheck/check.mjs above the working directory
// (the repository root holds go.work) and makes sure node can run it.
func scriptPath(t *testing.T) string {
	t.Helper()
	return filepath.Join(nodetool.Dir(t, "yjscheck", "yjs"), "check.mjs")
}
