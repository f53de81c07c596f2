// Command vectorbench loads synthetic judgments into the embedded vector
// index and reports build rate, memory, search latency (p50/p99), recall@10
// against exact search (with and without filters) and snapshot save/load
// times. Results go to stdout as Markdown table rows.
//
//	go run ./cmd/vectorbench -n 10000,100000 -dim 256 -queries 1000
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
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
	skipRecall     bool
	cpuProfile     string
	efs            []int
	unfilteredOnly bool
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
	efs := flag.String("ef", "", "comma-separated HNSW efSearch values to measure (empty = default)")
	flag.IntVar(&c.opts.Workers, "workers", 0, "insert goroutines (0 = GOMAXPROCS)")
	flag.IntVar(&c.batch, "batch", 10000, "points per Upsert call")
	flag.BoolVar(&c.snapshot, "snapshot", true, "measure snapshot save and load")
	flag.StringVar(&c.snapDir, "snapdir", os.TempDir(), "directory for the snapshot file")
	flag.IntVar(&c.gtWorkers, "gtworkers", 2, "goroutines computing exact ground truth")
	flag.Uint64Var(&c.seed, "seed", 1, "data seed")
	flag.BoolVar(&c.skipRecall, "norecall", false, "skip recall (no exact scans)")
	flag.BoolVar(&c.unfilteredOnly, "unfiltered", false, "measure only the workspace-wide (unfiltered) search")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the builds to this file")
	flag.Parse()
	c.cpuProfile = *cpuProfile
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
	return c, nil
}

func realMain(ctx context.Context) error {
	c, err := parseFlags()
	if err != nil {
		return err
	}
	fmt.Printf("# vectorbench %s  GOMAXPROCS=%d  dim=%d clusters=%d hard=%v  loadavg at start: %s\n",
		time.Now().UTC().Format(time.RFC3339), runtime.GOMAXPROCS(0), c.dim, c.clusters, c.hard, loadAvg())
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

func runSize(ctx context.Context, c config, n int) error {
	before := heapInUse()
	data := newDataset(c.dim, c.clusters, c.orgs, c.hard, c.seed)
	points := make([]vector.Point, n)
	for i := range points {
		points[i] = data.point(i)
	}
	queries := make([][]float32, c.queries)
	for i := range queries {
		queries[i] = data.vector()
	}
	if c.snapshot {
		c.opts.SnapshotPath = snapshotPath(c, n)
		os.Remove(c.opts.SnapshotPath)
	}
	idx, b, err := build(ctx, c, points)
	if err != nil {
		return err
	}
	points = nil
	runtime.GC()
	b.heapMB = float64(heapInUse()-before) / (1 << 20) // includes the queries (small)
	fmt.Printf("\n## n=%d  build %.1fs wall, %.0f vectors/s wall, %.0f vectors/s per 2 CPU-s (cpu %.1fs)  index heap %.0f MiB  loadavg %s\n",
		n, b.wall.Seconds(), float64(n)/b.wall.Seconds(), 2*float64(n)/b.cpu.Seconds(), b.cpu.Seconds(), b.heapMB, loadAvg())
	efs := c.efs
	if len(efs) == 0 {
		efs = []int{0}
	}
	fmt.Println("| efSearch | filter | p50 ms | p99 ms | mean ms | CPU p50 ms | CPU p99 ms | recall@10 | path |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	truths := map[string]*[][]vector.Hit{}
	for _, ef := range efs {
		efText := "default"
		if ef > 0 {
			idx.SetEfSearch(ef)
			efText = strconv.Itoa(ef)
		}
		modes := filterModes(n)
		if c.unfilteredOnly {
			modes = modes[:1]
		}
		for _, mode := range modes {
			if truths[mode.name] == nil {
				truths[mode.name] = new([][]vector.Hit)
			}
			r, err := measureSearch(ctx, c, idx, queries, mode.filter, truths[mode.name])
			if err != nil {
				return err
			}
			fmt.Printf("| %s | %s | %.3f | %.3f | %.3f | %.3f | %.3f | %s | %s |\n", efText, mode.name, r.p50, r.p99, r.mean,
				r.cpu50, r.cpu99, r.recallText(), mode.path(idx))
		}
	}
	if c.snapshot {
		return measureSnapshot(ctx, c, idx, queries)
	}
	return idx.Close()
}

type filterMode struct {
	name   string
	filter vector.Filter
}

// filterModes: the whole workspace, one organization (scanned through its
// inverted list), a 25% field (graph walk at large sizes), and a set plus a
// date range that the inverted lists cannot narrow (estimated by sampling).
func filterModes(n int) []filterMode {
	half := int64(1_700_000_000_000 + n/2*1000)
	return []filterMode{
		{"workspace only (100%)", vector.Filter{WorkspaceID: "ws-bench"}},
		{"one organization (1%)", vector.Filter{WorkspaceID: "ws-bench", OrganizationID: "org-042"}},
		{"contentType (25%)", vector.Filter{WorkspaceID: "ws-bench", ContentType: "code"}},
		{"2 of 4 decisions + newer half (25%)", vector.Filter{WorkspaceID: "ws-bench", Decisions: []string{"approved", "rejected"},
			CreatedFrom: half}},
	}
}

// path says which strategy the index uses for the mode.
func (m filterMode) path(idx *vector.Embedded) string {
	if idx.UsesGraph(m.filter, 10) {
		return "hnsw"
	}
	return "scan"
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

func snapshotPath(c config, n int) string {
	return filepath.Join(c.snapDir, fmt.Sprintf("vectorbench-%d.idx", n))
}
