package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/opencollab/backend/deploy/local/benchkit"
	"github.com/opencollab/backend/deploy/local/internal/localproc"
)

// result is one run's count.
type result struct {
	mode                 string
	run                  int
	acked, delivered     int // acknowledged activities, and those of them whose webhook arrived
	duplicates           int // webhooks of an activity beyond its first
	failed, serverErrors int // calls without an answer (the kill), 5xx answers
	killedAfter          int // acknowledgements before the kill
	recovery             time.Duration
	slowest              time.Duration // the longest answered call
	overLimit            int           // answered calls that took more than slowLimit
}

// slowLimit is the longest a request may take (issue: no request over a
// few seconds).
const slowLimit = 5 * time.Second

func (r result) lost() int { return r.acked - r.delivered }

// runOnce adds cfg.writes activities, kills the process once a random 30–70 %
// of them are acknowledged, restarts it, adds the rest and waits for the
// webhooks.
func runOnce(ctx context.Context, cfg config, mode string, n int, work string) (result, error) {
	r := result{mode: mode, run: n}
	dir := filepath.Join(work, fmt.Sprintf("%s-%d", mode, n))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return r, err
	}
	addr, err := localproc.FreeAddr()
	if err != nil {
		return r, err
	}
	o := localproc.Options{Bin: cfg.bin, DataDir: dir, Addr: addr, Log: filepath.Join(work, "local.log")}
	if mode == "external" {
		if err := resetStreams(ctx, cfg.redisURL); err != nil {
			return r, err
		}
		o.RedisURL = cfg.redisURL
	}
	rcv, err := startReceiver()
	if err != nil {
		return r, err
	}
	defer rcv.close()
	benchkit.Progress("%s run %d: starting deploy/local", mode, n)
	p, err := localproc.Start(ctx, o)
	if err != nil {
		return r, err
	}
	c := localproc.NewClient(p.URL, 30*time.Second)
	if err := configureWebhooks(ctx, c, rcv.url); err != nil {
		p.Stop()
		return r, err
	}
	l := &loader{c: c, prefix: fmt.Sprintf("crash_%s_%d_%d_", mode, n, time.Now().UnixNano()), total: cfg.writes}
	// The kill comes while the callers are busy: calls in flight are cut,
	// and writes acknowledged just before have their events anywhere
	// between the outbox, the stream and the delivery queue.
	killAt := cfg.writes * (30 + rand.IntN(41)) / 100
	// killing stops the callers before the kill: a caller that went on
	// while the process dies would burn the rest of the writes on refused
	// connections.
	var killing atomic.Bool
	killed := make(chan struct{})
	go func() {
		defer close(killed)
		for l.ackCount() < killAt && ctx.Err() == nil && l.next.Load() < int64(l.total) {
			time.Sleep(time.Millisecond)
		}
		r.killedAfter = l.ackCount()
		killing.Store(true)
		p.Kill()
	}()
	l.run(ctx, cfg.workers, killing.Load)
	<-killed
	benchkit.Progress("%s run %d: killed after %d acknowledged writes; restarting", mode, n, r.killedAfter)
	if p, err = localproc.Start(ctx, o); err != nil {
		return r, err
	}
	defer p.Stop()
	restarted := time.Now()
	l.run(ctx, cfg.workers, func() bool { return false }) // the rest, on the restarted process
	acked := l.ackedIDs()
	deadline := time.Now().Add(cfg.wait)
	for rcv.deliveredOf(acked) < len(acked) && time.Now().Before(deadline) && ctx.Err() == nil {
		time.Sleep(250 * time.Millisecond)
	}
	r.recovery = time.Since(restarted)
	r.acked, r.delivered, r.duplicates = len(acked), rcv.deliveredOf(acked), rcv.duplicateCount()
	r.failed, r.serverErrors = int(l.failed.Load()), int(l.serverErrors.Load())
	r.slowest, r.overLimit = time.Duration(l.slowest.Load()), int(l.overLimit.Load())
	return r, ctx.Err()
}

func configureWebhooks(ctx context.Context, c *localproc.Client, url string) error {
	if code, _, err := c.Post(ctx, "/v2/workspace/advancedwebhookconfig/update", map[string]any{"isEnabled": true}); err != nil || code != http.StatusOK {
		return fmt.Errorf("enable advanced webhooks: HTTP %d, %v", code, err)
	}
	code, _, err := c.Post(ctx, "/v2/workspace/advancedwebhook/endpoints/create", map[string]any{
		"url": url, "filterTypes": []string{"activity.add"}, "description": "crashtest receiver",
	})
	if err != nil || code != http.StatusOK {
		return fmt.Errorf("create endpoint: HTTP %d, %v", code, err)
	}
	return nil
}

// resetStreams deletes the event streams and the epoch of the external
// Redis database, so a run starts with no other run's events.
func resetStreams(ctx context.Context, url string) error {
	opts, err := redis.ParseURL(url)
	if err != nil {
		return err
	}
	rdb := redis.NewClient(opts)
	defer rdb.Close()
	if err := rdb.Ping(ctx).Err(); err != nil {
		return fmt.Errorf("%w at %s: %v", errNoRedis, url, err)
	}
	keys, err := rdb.Keys(ctx, "events*").Result()
	if err != nil || len(keys) == 0 {
		return err
	}
	return rdb.Del(ctx, keys...).Err()
}

// loader adds activities one per call from several workers.
type loader struct {
	c      *localproc.Client
	prefix string
	total  int
	next   atomic.Int64 // activities handed out
	mu     sync.Mutex
	acked  []string

	failed, serverErrors atomic.Int64
	slowest, overLimit   atomic.Int64 // nanoseconds; answered calls over slowLimit
}

// run adds activities until stop says so or all were sent.
func (l *loader) run(ctx context.Context, workers int, stop func() bool) {
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for ctx.Err() == nil && !stop() {
				i := l.next.Add(1)
				if i > int64(l.total) {
					return
				}
				l.one(ctx, fmt.Sprintf("%s%04d", l.prefix, i))
			}
		})
	}
	wg.Wait()
}

func (l *loader) one(ctx context.Context, id string) {
	start := time.Now()
	code, _, err := l.c.Post(ctx, "/v2/activities/add", map[string]any{
		"organizationId": "crashtest", "documentId": "doc-1",
		"activities": []any{map[string]any{
			"id": id, "featureType": "custom", "actionType": "crashtest.probe", "targetEntityId": id,
			"actionUser": map[string]any{"userId": "crash-user", "name": "Crash User", "email": "crash@example.com"},
		}},
	})
	if err == nil { // a call the kill cut says nothing of the server's speed
		l.timed(time.Since(start))
	}
	switch {
	case err != nil:
		l.failed.Add(1)
	case code == http.StatusOK:
		l.mu.Lock()
		l.acked = append(l.acked, id)
		l.mu.Unlock()
	case code >= 500:
		l.serverErrors.Add(1)
	}
}

func (l *loader) ackCount() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.acked)
}

func (l *loader) ackedIDs() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.acked...)
}

// timed records an answered call's duration.
func (l *loader) timed(d time.Duration) {
	if d > slowLimit {
		l.overLimit.Add(1)
	}
	for {
		cur := l.slowest.Load()
		if int64(d) <= cur || l.slowest.CompareAndSwap(cur, int64(d)) {
			return
		}
	}
}
