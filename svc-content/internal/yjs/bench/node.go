package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// runNode runs tools/yjscheck/bench-b4.mjs (stock yjs) on the same trace.
func runNode(ctx context.Context, root, tracePath string, runs int) (*result, error) {
	dir := filepath.Join(root, "tools", "yjscheck")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "yjs")); err != nil {
		return nil, errors.New("yjs is not installed: run npm ci --prefix tools/yjscheck (or pass -go-only)")
	}
	abs, err := filepath.Abs(tracePath)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, "node", "--expose-gc", filepath.Join(dir, "bench-b4.mjs"), abs, fmt.Sprint(runs))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("node: %v\n%s", err, stderr.String())
	}
	var r result
	if err := json.Unmarshal(out, &r); err != nil {
		return nil, fmt.Errorf("node output: %v: %s", err, out)
	}
	return &r, nil
}

// repoRoot is the directory holding go.work above the working directory.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("run from inside the repository (no go.work found)")
		}
		dir = parent
	}
}

func defaultTrace(root string) string {
	return filepath.Join(root, "svc-content", "internal", "yjs", "bench", "testdata", "automerge-paper.json.gz")
}
