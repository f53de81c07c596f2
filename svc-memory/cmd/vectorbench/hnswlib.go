package main

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// anchorScript runs hnswlib on the inputs vectorbench writes.
//
//go:embed hnswlib_bench.py
var anchorScript string

// installHint says how to get the anchor when it is missing.
const installHint = "hnswlib not found: install it with `apt-get install -y python3-hnswlib` " +
	"(Debian/Ubuntu; it brings python3-numpy), or pass -hnswlib=false"

// anchorBuild and anchorSearch are the script's output lines.
type anchorBuild struct {
	Seconds    float64 `json:"seconds"`
	CPUSeconds float64 `json:"cpu_seconds"`
	IndexBytes float64 `json:"index_bytes"`
	Version    string  `json:"version"`
}

type anchorSearch struct {
	Ef     int     `json:"ef"`
	Recall float64 `json:"recall"`
	P50    float64 `json:"p50_ms"`
	P99    float64 `json:"p99_ms"`
	Mean   float64 `json:"mean_ms"`
}

type anchorResult struct {
	build    anchorBuild
	searches []anchorSearch
}

// findPython returns a python3 that can import hnswlib and numpy. The
// Debian package installs into the system interpreter, which a
// version manager's python3 earlier in PATH does not see, so
// /usr/bin/python3 is tried too.
func findPython(explicit string) (string, error) {
	candidates := []string{"python3", "/usr/bin/python3"}
	if explicit != "" {
		candidates = []string{explicit}
	}
	for _, py := range candidates {
		if exec.Command(py, "-c", "import hnswlib, numpy").Run() == nil {
			return py, nil
		}
	}
	return "", errors.New(installHint)
}

// runAnchor writes the vectors, queries and ground truth to dir, runs the
// hnswlib script with the same M, efConstruction and thread count, and
// returns its figures.
func runAnchor(ctx context.Context, c config, data, queries []float32, truth [][]int32, efs []int) (anchorResult, error) {
	dir, err := os.MkdirTemp(c.snapDir, "vectorbench-hnswlib-")
	if err != nil {
		return anchorResult{}, err
	}
	defer os.RemoveAll(dir)
	files := map[string]func() []byte{
		"data.f32":    func() []byte { return f32Bytes(data) },
		"queries.f32": func() []byte { return f32Bytes(queries) },
		"truth.i32":   func() []byte { return truthBytes(truth, 10) },
		"bench.py":    func() []byte { return []byte(anchorScript) },
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), content(), 0o600); err != nil {
			return anchorResult{}, err
		}
	}
	efText := make([]string, len(efs))
	for i, ef := range efs {
		efText[i] = strconv.Itoa(ef)
	}
	cmd := exec.CommandContext(ctx, c.python, filepath.Join(dir, "bench.py"),
		"--data", filepath.Join(dir, "data.f32"), "--queries", filepath.Join(dir, "queries.f32"),
		"--truth", filepath.Join(dir, "truth.i32"), "--dim", strconv.Itoa(c.dim),
		"--m", strconv.Itoa(c.anchorM()), "--efc", strconv.Itoa(c.anchorEfC()),
		"--threads", strconv.Itoa(c.threads()), "--batch", strconv.Itoa(c.batch), "--efs", strings.Join(efText, ","))
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return anchorResult{}, err
	}
	if err := cmd.Start(); err != nil {
		return anchorResult{}, err
	}
	res, perr := parseAnchor(bufio.NewScanner(out))
	if err := cmd.Wait(); err != nil {
		return res, fmt.Errorf("hnswlib script: %w", err)
	}
	return res, perr
}

func parseAnchor(sc *bufio.Scanner) (anchorResult, error) {
	var res anchorResult
	for sc.Scan() {
		var kind struct {
			Kind string `json:"kind"`
		}
		line := sc.Bytes()
		if err := json.Unmarshal(line, &kind); err != nil {
			return res, fmt.Errorf("hnswlib script output %q: %w", line, err)
		}
		var err error
		switch kind.Kind {
		case "build":
			err = json.Unmarshal(line, &res.build)
		case "search":
			var s anchorSearch
			err = json.Unmarshal(line, &s)
			res.searches = append(res.searches, s)
		}
		if err != nil {
			return res, err
		}
	}
	return res, sc.Err()
}

func f32Bytes(v []float32) []byte {
	b := make([]byte, 0, 4*len(v))
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return b
}

// truthBytes writes k ids per query; a query with fewer true neighbours
// (never, unfiltered) is padded with -1.
func truthBytes(truth [][]int32, k int) []byte {
	b := make([]byte, 0, 4*k*len(truth))
	for _, row := range truth {
		for i := range k {
			id := int32(-1)
			if i < len(row) {
				id = row[i]
			}
			b = binary.LittleEndian.AppendUint32(b, uint32(id))
		}
	}
	return b
}
