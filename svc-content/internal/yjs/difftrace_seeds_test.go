package yjs_test

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/opencollab/backend/svc-content/internal/yjs/yjstest"
)

// Which traces TestDifferentialTraces replays. Generating a trace with yjs
// costs four times what replaying it in Go does (yjs's pending-struct
// handling in the shuffled deliveries is most of it), so make test does not
// replay a big random pool but the seeds of testdata/difftrace_seeds.txt:
// the few traces of the 2000-trace pool (seed blocks 1 and 2, 1000 each)
// that together reach every block of the engine the whole pool reaches,
// each as often as the pool does (to a power of two; see
// TestChooseDifferentialSeeds, which wrote the file). The random pool
// stays one variable away: YJS_TRACES=n replays n traces from each of the
// blocks instead (YJS_TRACES=1000 is the pool, 5000 a long local run), and
// YJS_TRACE_FILE=path replays traces saved from difftrace.mjs.

// traceBatches is how many node processes generate traces.
const traceBatches = 2

// chosenSeedsFile lists the default traces, one seed a line.
const chosenSeedsFile = "testdata/difftrace_seeds.txt"

// poolTraces is the number of traces per seed block the seeds were chosen
// from.
const poolTraces = 1000

// randomTraces returns YJS_TRACES when set: replay that many random traces
// per seed block instead of the chosen seeds.
func randomTraces() (int, bool) {
	n, err := strconv.Atoi(os.Getenv("YJS_TRACES"))
	return n, err == nil && n > 0
}

// generateTraces has yjs generate the traces of this run and returns the
// output of each node process (a trace a line) and how many traces to
// expect.
func generateTraces(t *testing.T) ([][]byte, int) {
	if path := os.Getenv("YJS_TRACE_FILE"); path != "" {
		return savedTraces(t, path)
	}
	if n, ok := randomTraces(); ok {
		return randomPool(t, n), traceBatches * n
	}
	seeds := chosenSeeds(t)
	var args [][]string
	for part := range traceBatches {
		lo, hi := part*len(seeds)/traceBatches, (part+1)*len(seeds)/traceBatches
		args = append(args, []string{"seeds", strings.Join(seeds[lo:hi], ",")})
	}
	return runDifftrace(t, args), len(seeds)
}

// savedTraces reads YJS_TRACE_FILE: difftrace.mjs output saved earlier,
// to replay a failing trace alone or to measure one trace's coverage.
func savedTraces(t *testing.T, path string) ([][]byte, int) {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return [][]byte{raw}, bytes.Count(raw, []byte("\n"))
}

// randomPool generates n traces from each seed block.
func randomPool(t *testing.T, n int) [][]byte {
	var args [][]string
	for block := range traceBatches {
		args = append(args, []string{strconv.Itoa(block + 1), strconv.Itoa(n)})
	}
	return runDifftrace(t, args)
}

// runDifftrace runs difftrace.mjs once per argument list, side by side.
func runDifftrace(t *testing.T, args [][]string) [][]byte {
	outs := make([][]byte, len(args))
	var wg sync.WaitGroup
	for i, a := range args {
		wg.Go(func() { outs[i] = yjstest.Run(t, "difftrace.mjs", nil, a...) })
	}
	wg.Wait()
	return outs
}

// chosenSeeds reads chosenSeedsFile (lines starting with # are comments).
func chosenSeeds(t *testing.T) []string {
	t.Helper()
	raw, err := os.ReadFile(chosenSeedsFile)
	if err != nil {
		t.Fatal(err)
	}
	var seeds []string
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if _, err := strconv.ParseInt(line, 10, 64); err != nil {
			t.Fatalf("%s: bad seed %q", chosenSeedsFile, line)
		}
		seeds = append(seeds, line)
	}
	if len(seeds) == 0 {
		t.Fatalf("%s lists no seeds", chosenSeedsFile)
	}
	return seeds
}
