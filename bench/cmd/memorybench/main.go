// Command memorybench is the loopback load run of the decision memory
// (issue 5): the whole embedded system in this one process (FerretDB on
// SQLite, in-process Redis, the embedded vector index and the hashing
// embedder), driven through the gateway as an API user drives it.
//
//   - Ingest: -n review activities posted with /v2/activities/add in calls
//     of -batch records over -orgs organizations of -docs documents, then
//     a wait until search counts all -n judgments. It reports the add-call
//     rate and the end-to-end rate (first post to last judgment counted),
//     and checks judgments/query lists every record.
//   - Load: -concurrency clients call /v2/memory/search for -duration,
//     half workspace-wide and half with an organizationId filter. It
//     reports requests/s, latency percentiles and errors, next to the
//     searchLatencyMs the service reports, so the gateway and HTTP share
//     is visible.
//
// Process RSS after each phase and the load average before and after are
// printed too. Markdown tables go to stdout, progress to stderr.
//
//	go run ./bench/cmd/memorybench
//	go run ./bench/cmd/memorybench -n 10000
package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/opencollab/backend/deploy/local/benchkit"
	"github.com/opencollab/backend/deploy/local/system"
)

type config struct {
	n, batch, orgs, docs int
	conc, limit          int
	duration             time.Duration
	poll, ingestWait     time.Duration
	timeout              time.Duration
	cpuProfile           string
}

func main() {
	cfg, err := parseFlags(os.Args[1:])
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		benchkit.Usage("memorybench", err)
	}
	benchkit.Main("memorybench", func(ctx context.Context) (int, error) {
		ctx, cancel := context.WithTimeout(ctx, cfg.timeout)
		defer cancel()
		return 0, benchkit.WithCPUProfile(cfg.cpuProfile, func() error { return run(ctx, cfg) })
	})
}

func parseFlags(args []string) (config, error) {
	var cfg config
	fs := flag.NewFlagSet("memorybench", flag.ContinueOnError)
	fs.IntVar(&cfg.n, "n", 2000, "review activities to ingest (each becomes one judgment)")
	fs.IntVar(&cfg.batch, "batch", 100, "activities per /v2/activities/add call (max 500)")
	fs.IntVar(&cfg.orgs, "orgs", 4, "organizations the activities are spread over")
	fs.IntVar(&cfg.docs, "docs", 5, "documents per organization")
	fs.IntVar(&cfg.conc, "concurrency", 4, "concurrent search clients of the load phase")
	fs.IntVar(&cfg.limit, "limit", 10, "limit of each search (1..50)")
	fs.DurationVar(&cfg.duration, "duration", 20*time.Second, "how long the search load runs")
	fs.DurationVar(&cfg.poll, "poll", 500*time.Millisecond, "least pause between judgment-count polls while ingesting (longer when polls are slow)")
	fs.DurationVar(&cfg.ingestWait, "ingest-timeout", 10*time.Minute, "end the ingest phase (posting and waiting for judgments) this long after the first post; the load phase then runs on what was ingested")
	fs.DurationVar(&cfg.timeout, "timeout", 20*time.Minute, "give up on the whole run after this long")
	fs.StringVar(&cfg.cpuProfile, "cpuprofile", "", "write a CPU profile of the whole run (services and stores included) to this file")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	switch {
	case cfg.n < 1 || cfg.batch < 1 || cfg.batch > 500:
		return cfg, errors.New("-n must be at least 1, -batch 1..500")
	case cfg.orgs < 1 || cfg.docs < 1 || cfg.conc < 1:
		return cfg, errors.New("-orgs, -docs and -concurrency must be at least 1")
	case cfg.limit < 1 || cfg.limit > 50:
		return cfg, errors.New("-limit must be 1..50")
	case cfg.duration <= 0 || cfg.poll <= 0 || cfg.ingestWait <= 0 || cfg.timeout <= 0:
		return cfg, errors.New("durations must be positive")
	}
	return cfg, nil
}

// results is everything one run measured.
type results struct {
	cfg                   config
	loadBefore, loadAfter string
	startup               time.Duration
	ingest                ingest
	afterIngest           memory
	load                  load
	afterLoad             memory
}

// run owns the system's life: a fresh data directory, start, the phases,
// then a clean stop before the directory is removed (FerretDB still has
// its files open until Wait returns).
func run(ctx context.Context, cfg config) error {
	dir, err := os.MkdirTemp("", "memorybench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	r := results{cfg: cfg, loadBefore: benchkit.LoadAverage()}
	sysCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Everything in the process that logs through the default logger
	// (servers shutting down, calls cut off at the end of the load) goes
	// quiet too, so stderr carries only progress.
	slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	benchkit.Progress("starting the embedded system in %s", dir)
	t0 := time.Now()
	// Rate limit off: the gateway's default 100/s per API key would make
	// the load phase measure the limiter. Logs off: at these rates they
	// would cost more than the work.
	sys, err := system.Start(sysCtx, system.Options{
		DataDir: dir, GatewayAddr: "127.0.0.1:0", RateLimitPerSecond: -1,
		Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)),
	})
	if err != nil {
		return err
	}
	r.startup = time.Since(t0)
	err = phases(ctx, benchkit.NewClient(sys, cfg.conc, callTimeout), &r)
	cancel()
	if waitErr := sys.Wait(); err == nil {
		err = waitErr
	}
	return err
}

func phases(ctx context.Context, c *benchkit.Client, r *results) error {
	cfg := r.cfg
	batches := seed(cfg.n, cfg.batch, cfg.orgs, cfg.docs)
	benchkit.Progress("ingest: %d activities in %d calls over %d organizations × %d documents", cfg.n, len(batches), cfg.orgs, cfg.docs)
	var err error
	if r.ingest, err = runIngest(ctx, c, batches, cfg.n, cfg.poll, cfg.ingestWait); err != nil {
		return err
	}
	if r.ingest.waitFailed != nil {
		benchkit.Progress("ingest incomplete: %v", r.ingest.waitFailed)
	}
	r.afterIngest = readMemory()
	benchkit.Progress("search load: %d clients for %v", cfg.conc, cfg.duration)
	// Organizations only get judgments when there are calls for them; the
	// filtered searches ask only those that have some.
	r.load = runLoad(ctx, c, cfg.conc, cfg.duration, min(cfg.orgs, len(batches)), cfg.limit)
	benchkit.Progress("%v", r.load.all())
	r.afterLoad, r.loadAfter = readMemory(), benchkit.LoadAverage()
	report(os.Stdout, *r)
	return nil
}
