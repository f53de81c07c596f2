// Command outagetest stops Redis under load and counts what deploy/local
// answered. It starts its own redis-server on a free port (never touching
// the machine's Redis), deploy/local on it, and callers that add
// activities and read activities and users, first pages and next pages,
// for three phases: Redis up, Redis stopped (SIGKILL), Redis started again.
//
// Degraded, not down: while Redis is stopped every call answers, reads go
// to the database, and page tokens issued meanwhile are sealed (they need
// no Redis). Only a page token issued by Redis before the outage cannot be
// read; it answers 503 UNAVAILABLE with Retry-After, counted apart.
//
//	go run ./deploy/local/cmd/outagetest
//	go run ./deploy/local/cmd/outagetest -phase 5s -workers 2
//
// The exit status is 1 when any other call answered 5xx, or a stale token's
// 503 came without Retry-After.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/opencollab/backend/deploy/local/benchkit"
	"github.com/opencollab/backend/deploy/local/internal/localproc"
)

type config struct {
	phase   time.Duration
	workers int
	bin     string
}

func main() {
	var cfg config
	flag.DurationVar(&cfg.phase, "phase", 15*time.Second, "length of each phase (up, down, up again)")
	flag.IntVar(&cfg.workers, "workers", 4, "concurrent callers")
	flag.StringVar(&cfg.bin, "bin", "", "a built deploy/local (default: built into a temporary folder)")
	flag.Parse()
	benchkit.Main("outagetest", func(ctx context.Context) (int, error) { return realMain(ctx, cfg) })
}

func realMain(ctx context.Context, cfg config) (int, error) {
	work, bin, cleanup, err := localproc.Workspace(ctx, "outagetest", cfg.bin)
	if err != nil {
		return 0, err
	}
	defer cleanup()
	cfg.bin = bin
	redisAddr, err := localproc.FreeAddr()
	if err != nil {
		return 0, err
	}
	rs, err := startRedis(redisAddr)
	if err != nil {
		return 0, err
	}
	defer func() { rs.kill() }()
	p, err := localproc.Start(ctx, localproc.Options{
		Bin: cfg.bin, DataDir: filepath.Join(work, "data"),
		RedisURL: "redis://" + redisAddr, Log: filepath.Join(work, "local.log"),
	})
	if err != nil {
		return 0, err
	}
	defer p.Stop()
	c := localproc.NewClient(p.URL, 30*time.Second)
	stale, err := seed(ctx, c)
	if err != nil {
		return 0, err
	}
	load := benchkit.LoadAverage()
	var phases []*tally
	for _, name := range []string{"redis up", "redis down", "redis up again"} {
		switch name {
		case "redis down":
			rs.kill()
		case "redis up again":
			if rs, err = startRedis(redisAddr); err != nil {
				return 0, err
			}
		}
		benchkit.Progress("phase %q for %s", name, cfg.phase)
		phases = append(phases, runPhase(ctx, c, name, cfg, stale))
	}
	return report(os.Stdout, cfg, phases, load, benchkit.LoadAverage()), ctx.Err()
}

// redisServer is the redis-server this test owns.
type redisServer struct{ cmd *exec.Cmd }

func startRedis(addr string) (*redisServer, error) {
	host, port := splitAddr(addr)
	cmd := exec.Command("redis-server", "--bind", host, "--port", port, "--save", "", "--appendonly", "no")
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start redis-server (is it installed?): %w", err)
	}
	time.Sleep(300 * time.Millisecond)
	return &redisServer{cmd: cmd}, nil
}

func (r *redisServer) kill() {
	if r == nil || r.cmd.Process == nil || r.cmd.ProcessState != nil {
		return
	}
	_ = r.cmd.Process.Kill()
	_ = r.cmd.Wait()
}

func splitAddr(addr string) (string, string) {
	for i := len(addr) - 1; i >= 0; i-- {
		if addr[i] == ':' {
			return addr[:i], addr[i+1:]
		}
	}
	return addr, ""
}
