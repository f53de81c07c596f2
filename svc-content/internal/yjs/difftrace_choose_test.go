package yjs_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/bits"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// TestChooseDifferentialSeeds rewrites testdata/difftrace_seeds.txt. It
// replays each trace of the random pool alone in a coverage build of this
// test and keeps a small set of traces (greedy set cover) that reaches
// every engine block the pool reaches, each with the same power-of-two
// bucket of hits (as fuzzers count coverage, so a trace that runs a loop
// 40 times is not taken for one that runs it once). Run it again when the
// engine or difftrace.mjs changes:
//
//	YJS_CHOOSE_SEEDS=1 go test -count=1 -timeout 1h -run TestChooseDifferentialSeeds ./svc-content/internal/yjs
func TestChooseDifferentialSeeds(t *testing.T) {
	if os.Getenv("YJS_CHOOSE_SEEDS") == "" {
		t.Skip("set YJS_CHOOSE_SEEDS=1 to choose the default traces")
	}
	n := poolTraces
	if m, ok := randomTraces(); ok {
		n = m
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "yjs-cover.test")
	build := exec.Command("go", "test", "-c", "-o", bin, "-covermode=count", "-coverpkg=.", ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	var traces [][]byte
	for _, out := range randomPool(t, n) {
		traces = append(traces, bytes.SplitAfter(bytes.TrimSpace(out), []byte("\n"))...)
	}
	seeds := make([]int64, len(traces))
	reached := make([]map[string]bool, len(traces))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				seeds[i], reached[i] = traceCoverage(t, bin, dir, i, traces[i])
			}
		})
	}
	for i := range traces {
		next <- i
	}
	close(next)
	wg.Wait()
	if t.Failed() {
		return
	}
	writeChosenSeeds(t, seeds, greedyCover(reached), len(traces))
}

// traceCoverage replays one trace alone in the coverage build and returns
// its seed and the blocks it reached.
func traceCoverage(t *testing.T, bin, dir string, i int, trace []byte) (int64, map[string]bool) {
	var tr struct {
		Seed int64 `json:"seed"`
	}
	if err := json.Unmarshal(trace, &tr); err != nil {
		t.Errorf("trace %d: %v", i, err)
		return 0, nil
	}
	file := filepath.Join(dir, fmt.Sprintf("trace%d.jsonl", i))
	profile := filepath.Join(dir, fmt.Sprintf("trace%d.cover", i))
	if err := os.WriteFile(file, append(bytes.TrimSpace(trace), '\n'), 0o600); err != nil {
		t.Error(err)
		return 0, nil
	}
	cmd := exec.Command(bin, "-test.run", "^TestDifferentialTraces$", "-test.coverprofile", profile)
	cmd.Env = append(os.Environ(), "YJS_TRACE_FILE="+file, "YJS_CHOOSE_SEEDS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("trace %d (seed %d): %v\n%s", i, tr.Seed, err, out)
		return tr.Seed, nil
	}
	raw, err := os.ReadFile(profile)
	if err != nil {
		t.Error(err)
		return tr.Seed, nil
	}
	_ = os.Remove(file)
	_ = os.Remove(profile)
	return tr.Seed, reachedBlocks(raw)
}

// reachedBlocks parses a text coverage profile ("file:pos,pos stmts
// count" lines) into "file:pos,pos#bucket" keys for blocks hit.
func reachedBlocks(profile []byte) map[string]bool {
	out := map[string]bool{}
	for _, line := range strings.Split(string(profile), "\n") {
		fields := strings.Fields(line)
		if len(fields) != 3 {
			continue
		}
		count, err := strconv.ParseUint(fields[2], 10, 64)
		if err != nil || count == 0 {
			continue
		}
		out[fmt.Sprintf("%s#%d", fields[0], bits.Len64(count))] = true
	}
	return out
}

// greedyCover returns indexes of sets whose union is the union of all:
// each step takes the set adding the most keys (the first on ties).
func greedyCover(sets []map[string]bool) []int {
	covered := map[string]bool{}
	var chosen []int
	for {
		best, bestGain := -1, 0
		for i, s := range sets {
			gain := 0
			for k := range s {
				if !covered[k] {
					gain++
				}
			}
			if gain > bestGain {
				best, bestGain = i, gain
			}
		}
		if best < 0 {
			return chosen
		}
		chosen = append(chosen, best)
		for k := range sets[best] {
			covered[k] = true
		}
	}
}

func writeChosenSeeds(t *testing.T, seeds []int64, chosen []int, pool int) {
	var b strings.Builder
	fmt.Fprintf(&b, "# Traces TestDifferentialTraces replays by default: %d of a pool of %d\n", len(chosen), pool)
	b.WriteString("# (seed blocks 1 and 2 of difftrace.mjs) that reach every engine block the\n")
	b.WriteString("# pool reaches, as often (to a power of two). Written by\n")
	b.WriteString("# TestChooseDifferentialSeeds; greedy order, most coverage first.\n")
	for _, i := range chosen {
		fmt.Fprintf(&b, "%d\n", seeds[i])
	}
	if err := os.WriteFile(chosenSeedsFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("chose %d of %d traces", len(chosen), pool)
}
