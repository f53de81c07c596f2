// Command vectorbench loads synthetic judgments into the embedded vector
// index and reports build rate, memory, search latency (p50/p99), recall@10
// against an exact float32 scan of the generated vectors (with and without
// filters) and snapshot save/load times; then it runs hnswlib (the Debian
// python3-hnswlib package) on the same vectors, queries and ground truth
// with the same M, efConstruction and thread count, and prints the two side
// by side. Results go to stdout as Markdown tables.
//
//	go run ./cmd/vectorbench -n 10000,100000 -dim 256 -queries 1000 -ef 64,128,256
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/opencollab/backend/svc-memory/internal/vector"
)

type config struct {
	sizes          []int
	dim            int
	queries        int
	clusters       int
	orgs           int
	hard           bool
	opts           vector.Options
	batch          int
	snapshot       bool
	snapDir        string
	gtWorkers      int
	seed           uint64
	cpuProfile     string
	efs            []int
	unfilteredOnly bool
	anchor         bool
	python         string
}

// threads is the insert parallelism of both indexes.
func (c config) threads() int {
	if c.opts.Workers > 0 {
		return c.opts.Workers
	}
	return runtime.GOMAXPROCS(0)
}

func (c config) anchorM() int {
	if c.opts.M > 0 {
		return c.opts.M
	}
	return vector.DefaultM
}

func (c config) anchorEfC() int {
	if c.opts.EfConstruction > 0 {
		return c.opts.EfConstruction
	}
	return vector.DefaultEfConstruction
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := realMain(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "vectorbench:", err)
		os.Exit(1)
	}
}

func parseFlags() (config, error) {
	var c config
	sizes := flag.String("n", "10000,100000", "comma-separated index sizes")
	flag.IntVar(&c.dim, "dim", 256, "vector dimensions")
	flag.IntVar(&c.queries, "queries", 1000, "queries per filter mode (recall sample)")
	flag.IntVar(&c.clusters, "clusters", 1000, "Gaussian clusters in the data")
	flag.IntVar(&c.orgs, "orgs", 100, "organizations in the payloads")
	flag.BoolVar(&c.hard, "hard", false, "isotropic cluster noise (worst case for ANN) instead of subspace variation")
	flag.IntVar(&c.opts.ExactThreshold, "threshold", 0, "ExactThreshold (0 = default)")
	flag.IntVar(&c.opts.M, "m", 0, "HNSW M (0 = default)")
	flag.IntVar(&c.opts.EfConstruction, "efc", 0, "HNSW efConstruction (0 = default)")
	efs := flag.String("ef", "", "comma-separated efSearch values measured after the default (both indexes)")
	flag.IntVar(&c.opts.Workers, "workers", 0, "insert threads of both indexes (0 = GOMAXPROCS)")
	flag.IntVar(&c.batch, "batch", 10000, "points per Upsert call")
	flag.BoolVar(&c.snapshot, "snapshot", true, "measure snapshot save and load")
	flag.StringVar(&c.snapDir, "snapdir", os.TempDir(), "directory for the snapshot and the hnswlib inputs")
	flag.IntVar(&c.gtWorkers, "gtworkers", 2, "goroutines computing exact ground truth")
	flag.Uint64Var(&c.seed, "seed", 1, "data seed")
	flag.BoolVar(&c.unfilteredOnly, "unfiltered", false, "measure only the workspace-wide (unfiltered) search")
	flag.BoolVar(&c.anchor, "hnswlib", true, "run hnswlib side by side (python3-hnswlib)")
	flag.StringVar(&c.python, "python", "", "python3 interpreter with hnswlib (default: python3, then /usr/bin/python3)")
	flag.StringVar(&c.cpuProfile, "cpuprofile", "", "write a CPU profile of the run to this file")
	flag.Parse()
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n <= 0 {
			return c, fmt.Errorf("bad -n value %q", s)
		}
		c.sizes = append(c.sizes, n)
	}
	c.opts.Dim = c.dim
	if *efs != "" {
		for _, s := range strings.Split(*efs, ",") {
			ef, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || ef <= 0 {
				return c, fmt.Errorf("bad -ef value %q", s)
			}
			c.efs = append(c.efs, ef)
		}
	}
	if c.anchor {
		py, err := findPython(c.python)
		if err != nil {
			return c, err
		}
		c.python = py
	}
	return c, nil
}

func realMain(ctx context.Context) error {
	c, err := parseFlags()
	if err != nil {
		return err
	}
	fmt.Printf("# vectorbench %s  GOMAXPROCS=%d  dim=%d clusters=%d hard=%v threads=%d  loadavg at start: %s\n",
		time.Now().UTC().Format(time.RFC3339), runtime.GOMAXPROCS(0), c.dim, c.clusters, c.hard, c.threads(), loadAvg())
	if c.cpuProfile != "" {
		f, err := os.Create(c.cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	for _, n := range c.sizes {
		if err := runSize(ctx, c, n); err != nil {
			return err
		}
		runtime.GC()
		debug.FreeOSMemory()
	}
	fmt.Printf("# loadavg at end: %s\n", loadAvg())
	return nil
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

func heapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
