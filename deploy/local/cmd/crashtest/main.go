// Command crashtest kills `deploy/local` with SIGKILL while activities are
// being added through its gateway, starts it again on the same data, and
// counts the activities whose addition was acknowledged (HTTP 200) against
// those whose webhook reached a loopback receiver. An acknowledged
// activity whose webhook never arrives is a lost event.
//
// It runs in both modes of deploy/local: embedded (FerretDB on SQLite and
// the in-process Redis, which dies with the process) and external Redis
// (-redis, default redis://127.0.0.1:6379/12; the stream keys of that
// database are deleted before each run).
//
//	go run ./deploy/local/cmd/crashtest                    # 5 runs per mode
//	go run ./deploy/local/cmd/crashtest -runs 1 -writes 60 -modes embedded
//
// The table goes to stdout, progress to stderr; the exit status is 1 when
// an event was lost.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/opencollab/backend/deploy/local/benchkit"
	"github.com/opencollab/backend/deploy/local/internal/localproc"
)

type config struct {
	runs, writes, workers int
	modes                 []string
	redisURL              string
	wait                  time.Duration
	bin                   string
}

func main() {
	var cfg config
	var modes string
	flag.IntVar(&cfg.runs, "runs", 5, "kill -9 runs per mode")
	flag.IntVar(&cfg.writes, "writes", 300, "activities added per run (one per call)")
	flag.IntVar(&cfg.workers, "workers", 4, "concurrent callers")
	flag.StringVar(&modes, "modes", "embedded,external", "comma-separated: embedded, external")
	flag.StringVar(&cfg.redisURL, "redis", "redis://127.0.0.1:6379/12", "the external Redis (a database of its own)")
	flag.DurationVar(&cfg.wait, "wait", 4*time.Minute, "longest wait after the restart for the webhooks")
	flag.StringVar(&cfg.bin, "bin", "", "a built deploy/local (default: built into a temporary folder)")
	flag.Parse()
	cfg.modes = strings.Split(modes, ",")
	if cfg.runs < 1 || cfg.writes < 10 || cfg.workers < 1 {
		benchkit.Usage("crashtest", errors.New("-runs ≥ 1, -writes ≥ 10, -workers ≥ 1"))
	}
	benchkit.Main("crashtest", func(ctx context.Context) (int, error) { return realMain(ctx, cfg) })
}

func realMain(ctx context.Context, cfg config) (int, error) {
	work, bin, cleanup, err := localproc.Workspace(ctx, "crashtest", cfg.bin)
	if err != nil {
		return 0, err
	}
	defer cleanup()
	cfg.bin = bin
	load := benchkit.LoadAverage()
	var rows []result
	for _, mode := range cfg.modes {
		if mode != "embedded" && mode != "external" {
			return 0, fmt.Errorf("unknown mode %q", mode)
		}
		for i := range cfg.runs {
			r, err := runOnce(ctx, cfg, mode, i+1, work)
			if err != nil {
				return 0, fmt.Errorf("%s run %d: %w", mode, i+1, err)
			}
			benchkit.Progress("%s run %d: acknowledged %d, delivered %d, lost %d", mode, i+1, r.acked, r.delivered, r.lost())
			rows = append(rows, r)
		}
	}
	return report(os.Stdout, cfg, rows, load, benchkit.LoadAverage()), nil
}

var errNoRedis = errors.New("external Redis not reachable")
