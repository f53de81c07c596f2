// Command batchtest sends every batch operation at its largest size (the
// named limits of the README) to deploy/local on its embedded stores and
// prints how long each took, the first time and again with the same body
// (a retry, which must complete or repeat the work idempotently), and how
// far each call raised the process's resident memory: its peak during the
// call (VmHWM, reset before the call) minus what it held before (VmRSS).
// Memory the process kept from earlier calls and reuses is not counted,
// so the figure is the growth a call forced, not all it touched.
//
//	go run ./deploy/local/cmd/batchtest
//	go run ./deploy/local/cmd/batchtest -bin bin/local
//	go run ./deploy/local/cmd/batchtest -only 'users/delete|documents/delete'
//
// The exit status is 1 when a call did not answer 2xx or took over -limit.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"path/filepath"
	"regexp"
	"time"

	"github.com/opencollab/backend/deploy/local/benchkit"
	"github.com/opencollab/backend/deploy/local/internal/localproc"
)

type config struct {
	bin   string
	limit time.Duration
	only  *regexp.Regexp
}

func main() {
	var cfg config
	flag.StringVar(&cfg.bin, "bin", "", "a built deploy/local (default: built into a temporary folder)")
	flag.DurationVar(&cfg.limit, "limit", 5*time.Second, "longest answer counted as good")
	only := flag.String("only", "", "measure only the operations whose path matches this regexp (those before the last match run once, unmeasured, as set-up)")
	flag.Parse()
	re, err := regexp.Compile(*only)
	if err != nil {
		benchkit.Usage("batchtest", fmt.Errorf("-only: %w", err))
	}
	cfg.only = re
	benchkit.Main("batchtest", func(ctx context.Context) (int, error) { return realMain(ctx, cfg) })
}

func realMain(ctx context.Context, cfg config) (int, error) {
	work, bin, cleanup, err := localproc.Workspace(ctx, "batchtest", cfg.bin)
	if err != nil {
		return 0, err
	}
	defer cleanup()
	p, err := localproc.Start(ctx, localproc.Options{
		Bin: bin, DataDir: filepath.Join(work, "data"), Log: filepath.Join(work, "local.log"),
	})
	if err != nil {
		return 0, err
	}
	defer p.Stop()
	c := localproc.NewClient(p.URL, 5*time.Minute)
	before := benchkit.LoadAverage()
	fmt.Printf("\nbatchtest: every batch operation at its limit on deploy/local (embedded stores)\n")
	fmt.Printf("load average before %s\n\n", before)
	fmt.Println("| operation | size | first | again (same body) | peak RSS growth (first, again) |")
	fmt.Println("|---|---|---|---|---|")
	var rows []row
	for _, op := range upToLastMatch(operations(), cfg.only) {
		if !cfg.only.MatchString(op.path) {
			benchkit.Progress("set-up %s (%s)", op.path, op.size)
			if code, _, err := c.Post(ctx, op.path, op.body()); err != nil || code/100 != 2 {
				return 0, fmt.Errorf("set-up %s: %d %v", op.path, code, err)
			}
			continue
		}
		benchkit.Progress("%s (%s)", op.path, op.size)
		r := row{op: op}
		for i := range r.calls {
			r.calls[i] = measure(ctx, c, p, op)
		}
		rows = append(rows, r)
		fmt.Println(r.line())
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
	}
	return summary(cfg, rows, benchkit.LoadAverage()), nil
}

// upToLastMatch is ops without those after the last one only matches:
// nothing measured needs them as set-up.
func upToLastMatch(ops []operation, only *regexp.Regexp) []operation {
	for i := len(ops) - 1; i >= 0; i-- {
		if only.MatchString(ops[i].path) {
			return ops[:i+1]
		}
	}
	return nil
}

// row is one operation sent twice.
type row struct {
	op    operation
	calls [2]call
}

type call struct {
	code int
	took time.Duration
	err  error
	grew int64 // bytes of resident memory the call added; -1 unknown
}

// measure sends op once, timing it and reading the process's memory
// around it.
func measure(ctx context.Context, c *localproc.Client, p *localproc.Proc, op operation) call {
	body := op.body()
	resetErr := p.ResetPeak()
	before, _, beforeErr := p.Memory()
	start := time.Now()
	code, _, err := c.Post(ctx, op.path, body)
	cl := call{code: code, took: time.Since(start), err: err}
	_, peak, afterErr := p.Memory()
	cl.grew = max(0, peak-before)
	if memErr := errors.Join(resetErr, beforeErr, afterErr); memErr != nil {
		slog.Warn("batchtest: memory not read", "error", memErr)
		cl.grew = -1
	}
	return cl
}

// line is the table row of r, printed as soon as it is measured (a slow
// operation shows the ones before it).
func (r row) line() string {
	cells := [2]string{}
	grew := [2]string{}
	for i, c := range r.calls {
		cells[i] = fmt.Sprintf("%.2f s (%d)", c.took.Seconds(), c.code)
		if c.err != nil {
			cells[i] = fmt.Sprintf("no answer after %.2f s: %v", c.took.Seconds(), c.err)
		}
		grew[i] = mib(c.grew)
	}
	return fmt.Sprintf("| %s | %s | %s | %s | %s, %s |", r.op.path, r.op.size, cells[0], cells[1], grew[0], grew[1])
}

func mib(bytes int64) string {
	if bytes < 0 {
		return "—"
	}
	return fmt.Sprintf("%.1f MiB", float64(bytes)/(1<<20))
}

// summary prints the slowest call and returns the calls that went wrong.
func summary(cfg config, rows []row, after string) int {
	bad := 0
	var slowest, hungriest row
	var slowestTook time.Duration
	grewMost := int64(-1)
	for _, r := range rows {
		for _, c := range r.calls {
			if c.err != nil || c.code/100 != 2 || c.took > cfg.limit {
				bad++
			}
			if c.took > slowestTook {
				slowest, slowestTook = r, c.took
			}
			if c.grew > grewMost {
				hungriest, grewMost = r, c.grew
			}
		}
	}
	fmt.Printf("\nload average after %s\n", after)
	fmt.Printf("slowest: %s (%s) %.2f s; calls not 2xx or over %s: %d\n", slowest.op.path, slowest.op.size, slowestTook.Seconds(), cfg.limit, bad)
	fmt.Printf("largest peak RSS growth: %s (%s) %s\n", hungriest.op.path, hungriest.op.size, mib(grewMost))
	return bad
}
