// Command contentbench measures, through the gateway on the embedded stack
// (system.Start, FerretDB and in-process Redis, one process):
//
//   - bulk activities/add (100 records a call) and notifications/add
//     (one notification a call) throughput with concurrent clients;
//   - users/data/get first-page latency for one user as their comments and
//     notifications grow (-sizes: the user has that many of each at every
//     measurement), to show whether a page costs more when there are more
//     records;
//   - the seeding itself: commentannotations/add (several annotations of
//     several comments a call, all by the user), commentannotations/comments/add
//     and notifications/add (each notifying the user) rates.
//
// It prints markdown tables; progress goes to stderr.
//
//	go run ./bench/cmd/contentbench
//	go run ./bench/cmd/contentbench -sizes 1000,10000 -page-calls 50
//
// The defaults finish in minutes on a loaded two-core machine. The issue's
// full sizes (1 000 and 10 000) take far longer on the embedded store: the
// SQLite backend of FerretDB v1.24.2 scans a collection's table even for an
// {_id: v} lookup (its _id index is on a different expression than the one
// its queries use), so every write and read slows as collections grow.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/opencollab/backend/deploy/local/benchkit"
	"github.com/opencollab/backend/deploy/local/system"
)

type config struct {
	conc          int
	activityCalls int
	perActivity   int
	notifyCalls   int
	sizes         []int
	pageCalls     int
	pageWarmup    int
	pageConc      int
	shape         shape
	timeout       time.Duration
	cpuProfile    string
	callTimeout   time.Duration
}

func main() {
	cfg, err := parseFlags()
	if err != nil {
		benchkit.Usage("contentbench", err)
	}
	benchkit.Main("contentbench", func(ctx context.Context) (int, error) {
		ctx, cancel := context.WithTimeout(ctx, cfg.timeout)
		defer cancel()
		return 0, benchkit.WithCPUProfile(cfg.cpuProfile, func() error { return run(ctx, cfg) })
	})
}

func parseFlags() (config, error) {
	var cfg config
	var sizes string
	flag.IntVar(&cfg.conc, "concurrency", 4, "concurrent clients of the write phases (throughput and seeding)")
	flag.IntVar(&cfg.activityCalls, "activity-calls", 5, "activities/add calls")
	flag.IntVar(&cfg.perActivity, "activities-per-call", 100, "activity records per activities/add call (max 500)")
	flag.IntVar(&cfg.notifyCalls, "notify-calls", 200, "notifications/add calls of the throughput phase")
	flag.StringVar(&sizes, "sizes", "250,1000", "comments and notifications the data user has at each users/data/get measurement, increasing")
	flag.IntVar(&cfg.pageCalls, "page-calls", 10, "measured users/data/get first-page calls at each size")
	flag.IntVar(&cfg.pageWarmup, "page-warmup", 2, "unmeasured first-page calls before them")
	flag.IntVar(&cfg.pageConc, "page-concurrency", 1, "concurrent users/data/get clients")
	flag.IntVar(&cfg.shape.perCall, "annotations-per-call", 10, "annotations per commentannotations/add call")
	flag.IntVar(&cfg.shape.create, "comments-per-annotation", 8, "comments each annotation is created with")
	flag.IntVar(&cfg.shape.append, "comments-per-add", 2, "comments then added to each annotation by one comments/add (0: none)")
	flag.DurationVar(&cfg.timeout, "timeout", 2*time.Hour, "give up after this long")
	flag.DurationVar(&cfg.callTimeout, "call-timeout", 5*time.Minute, "give up on one call after this long (the store may still finish it)")
	flag.StringVar(&cfg.cpuProfile, "cpuprofile", "", "write a CPU profile of the whole run (services included) to this file")
	flag.Parse()
	var err error
	if cfg.sizes, err = parseSizes(sizes, cfg.shape); err != nil {
		return cfg, err
	}
	return cfg, cfg.validate()
}

// parseSizes reads the increasing sizes; each step must be whole
// annotations, so the user has exactly that many comments.
func parseSizes(s string, sh shape) ([]int, error) {
	var out []int
	prev := 0
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= prev || sh.perAnnotation() <= 0 || (n-prev)%sh.perAnnotation() != 0 {
			return nil, fmt.Errorf("-sizes %q: want increasing sizes whose steps are multiples of %d comments (comments-per-annotation + comments-per-add)", s, sh.perAnnotation())
		}
		out, prev = append(out, n), n
	}
	return out, nil
}

func (c config) validate() error {
	switch {
	case c.conc < 1 || c.pageConc < 1 || c.callTimeout <= 0:
		return errors.New("concurrencies must be at least 1, -call-timeout positive")
	case c.perActivity < 1 || c.perActivity > 500:
		return errors.New("-activities-per-call must be 1..500")
	case c.activityCalls < 0 || c.notifyCalls < 0 || c.pageCalls < 1 || c.pageWarmup < 0:
		return errors.New("call counts must not be negative (-page-calls at least 1)")
	case c.shape.perCall < 1 || c.shape.create < 1 || c.shape.append < 0:
		return errors.New("-annotations-per-call and -comments-per-annotation must be at least 1")
	}
	return nil
}

// results is everything one run measured.
type results struct {
	loadBefore, loadAfter string
	throughput            []phase
	steps                 []step
	total                 time.Duration
}

// step is one size: the seeding that reached it and the pages read at it.
type step struct {
	size  int
	seed  []phase
	pages pages
}

func run(ctx context.Context, cfg config) error {
	dir, err := os.MkdirTemp("", "contentbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	sysCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	start := time.Now()
	r := results{loadBefore: benchkit.LoadAverage()}
	sys, err := system.Start(sysCtx, system.Options{
		DataDir: dir, GatewayAddr: "127.0.0.1:0", RateLimitPerSecond: -1,
		Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)),
	})
	if err != nil {
		return err
	}
	c := benchkit.NewClient(sys, max(cfg.conc, cfg.pageConc), cfg.callTimeout)
	u := &dataUser{c: c, id: "bench-user", shape: cfg.shape}
	if err := addUsers(ctx, c, u.id, benchAuthor, benchTarget); err != nil {
		return fmt.Errorf("seed users: %w", err)
	}
	d, err := newDirect(ctx, sys, c)
	if err != nil {
		return fmt.Errorf("workspace lookup: %w", err)
	}
	r.throughput = throughput(ctx, c, cfg)
	for _, size := range cfg.sizes {
		s, err := grow(ctx, u, d, size, cfg)
		if err != nil {
			return err
		}
		r.steps = append(r.steps, s)
		benchkit.Progress("size %d: first page p50 %v", size, s.pages.pct(0.5))
	}
	r.total, r.loadAfter = time.Since(start), benchkit.LoadAverage()
	report(os.Stdout, cfg, r)
	cancel()
	return sys.Wait()
}

// grow seeds the data user's comments and notifications up to size, then
// measures their first page.
func grow(ctx context.Context, u *dataUser, d *direct, size int, cfg config) (step, error) {
	s := step{size: size}
	benchkit.Progress("seeding comments to %d", size)
	seed, err := u.growComments(ctx, size, cfg.conc)
	if err != nil {
		return s, err
	}
	benchkit.Progress("seeding notifications to %d", size)
	notes, err := u.growNotifications(ctx, size, cfg.conc)
	if err != nil {
		return s, err
	}
	s.seed = append(seed, notes)
	s.pages, err = firstPages(ctx, u, d, cfg)
	return s, err
}
