// Command bench runs the B4 benchmark of the Yjs benchmark suite
// (dmonad/crdt-benchmarks: the automerge-paper editing trace, 259,778
// single-character edits) on this Yjs engine and, in the same invocation,
// on stock yjs under node (tools/yjscheck/bench-b4.mjs), and prints both
// side by side. Run it under the benchmark lock:
//
//	flock /tmp/opencollab-bench.lock go run ./svc-content/internal/yjs/bench
//
// Each edit is a transaction that produces its update (as a server sends
// them); then the document is encoded and loaded again. Times are the
// median of -runs runs; memory is the live heap of the edited and of the
// loaded document after garbage collection.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := realMain(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func realMain(ctx context.Context) error {
	trace := flag.String("trace", "", "trace file (default: testdata/automerge-paper.json.gz next to this command)")
	runs := flag.Int("runs", 3, "runs per engine; times are their median")
	skipNode := flag.Bool("go-only", false, "do not run stock yjs")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the Go runs to this file")
	flag.Parse()
	root, err := repoRoot()
	if err != nil {
		return err
	}
	if *trace == "" {
		*trace = defaultTrace(root)
	}
	tr, err := loadTrace(*trace)
	if err != nil {
		return err
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
	}
	goRes, err := runGo(tr, *runs)
	pprof.StopCPUProfile()
	if err != nil {
		return err
	}
	var jsRes *result
	if !*skipNode {
		if jsRes, err = runNode(ctx, root, *trace, *runs); err != nil {
			return err
		}
	}
	printTable(os.Stdout, len(tr.Edits), goRes, jsRes)
	return nil
}
