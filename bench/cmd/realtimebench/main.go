// Command realtimebench loads realtime sync with many WebSocket clients and
// compares svc-content (through the gateway, the whole local system in one
// process, updates stored in the embedded FerretDB before they are acknowledged)
// with stock @hocuspocus/server 4.7.0 (node, documents in memory), both
// driven by the same Hocuspocus-protocol clients in one invocation:
//
//	flock /tmp/opencollab-bench.lock go run ./bench/cmd/realtimebench
//
// Phases per server: connect the clients (memory per connection from the
// server's resident memory before and after), a steady phase where every
// client sends a small update at -rate per second (delivery latency of
// each update to the other clients of its document, server CPU), then a
// saturation phase where every client sends its next update as soon as
// the previous one was acknowledged (sustained updates/s).
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"
)

type options struct {
	clients, docs int
	rate          float64
	steady, sat   time.Duration
	only          string
	profile       string // directory for CPU profiles of ours; empty: none
}

type result struct {
	name                 string
	memPerConn           float64 // bytes
	p50, p99             time.Duration
	sent, delivered      int
	cpuPerUpdate         time.Duration
	cpuShare             float64 // cores busy during the steady phase
	sustained            float64 // acknowledged updates/s when saturated
	connectErrs, badRecv int64
}

func main() {
	var o options
	flag.IntVar(&o.clients, "clients", 1000, "WebSocket clients")
	flag.IntVar(&o.docs, "docs", 100, "documents the clients spread over")
	flag.Float64Var(&o.rate, "rate", 1, "updates per client per second in the steady phase")
	flag.DurationVar(&o.steady, "steady", 20*time.Second, "steady phase")
	flag.DurationVar(&o.sat, "saturate", 10*time.Second, "saturation phase")
	flag.StringVar(&o.only, "only", "", "run only this server: ours or hocuspocus")
	flag.StringVar(&o.profile, "profile", "", "write CPU profiles of ours (steady.pprof, saturation.pprof) and its heap allocations to this directory")
	flag.Parse()
	if err := realMain(o); err != nil {
		fmt.Fprintln(os.Stderr, "realtimebench:", err)
		os.Exit(1)
	}
}

func realMain(o options) error {
	repo, err := repoRoot()
	if err != nil {
		return err
	}
	var results []result
	if o.only != "hocuspocus" {
		dir, err := os.MkdirTemp("", "realtimebench")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		s, token, err := startOurs(dir, "bench", o.profile != "")
		if err != nil {
			return err
		}
		r, err := measure(o, s, token)
		s.stop()
		if err != nil {
			return err
		}
		results = append(results, r)
	}
	if o.only != "ours" {
		s, err := startHocuspocus(repo)
		if err != nil {
			return err
		}
		r, err := measure(o, s, "any")
		s.stop()
		if err != nil {
			return err
		}
		results = append(results, r)
	}
	report(o, results)
	return nil
}

func measure(o options, s *server, token string) (result, error) {
	res := result{name: s.name}
	time.Sleep(2 * time.Second)
	base := s.rss()
	run := newRun()
	clients, err := connect(o, s, run, token, &res)
	if err != nil {
		return res, err
	}
	defer func() {
		for _, c := range clients {
			c.close()
		}
	}()
	time.Sleep(2 * time.Second)
	res.memPerConn = float64(s.rss()-base) / float64(len(clients))

	run.measure.Store(true)
	cpu0, t0 := s.cpuTime(), time.Now()
	stopProfile := s.profile(o.profile, "steady", o.steady)
	res.sent = steady(o, clients)
	stopProfile()
	time.Sleep(time.Second) // let the last deliveries land
	run.measure.Store(false)
	cpu := s.cpuTime() - cpu0
	res.cpuShare = cpu.Seconds() / time.Since(t0).Seconds()
	if res.sent > 0 {
		res.cpuPerUpdate = cpu / time.Duration(res.sent)
	}
	run.mu.Lock()
	lat := run.latencies
	run.mu.Unlock()
	res.delivered = len(lat)
	res.p50, res.p99 = percentile(lat, 0.50), percentile(lat, 0.99)
	res.badRecv = run.errors.Load()
	stopProfile = s.profile(o.profile, "saturation", o.sat)
	res.sustained = saturate(o, clients, run)
	stopProfile()
	return res, nil
}

func connect(o options, s *server, run *run, token string, res *result) ([]*client, error) {
	clients := make([]*client, o.clients)
	var wg sync.WaitGroup
	var mu sync.Mutex
	sem := make(chan struct{}, 50)
	for i := range o.clients {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			name := fmt.Sprintf("bench/doc-%d/editor", i%o.docs)
			c, err := dial(run, s.url, name, token, uint64(100000+i))
			if err == nil {
				select {
				case <-c.synced:
				case <-time.After(30 * time.Second):
					err = fmt.Errorf("not synced")
				}
			}
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				res.connectErrs++
				return
			}
			clients[i] = c
		}()
	}
	wg.Wait()
	var ok []*client
	for _, c := range clients {
		if c != nil {
			ok = append(ok, c)
		}
	}
	if len(ok) == 0 {
		return nil, fmt.Errorf("%s: no client connected\n%s", s.name, s.out.String())
	}
	return ok, nil
}

// steady sends one update per client every 1/rate seconds, phases spread.
func steady(o options, clients []*client) int {
	period := time.Duration(float64(time.Second) / o.rate)
	end := time.Now().Add(o.steady)
	var sent sync.WaitGroup
	counts := make([]int, len(clients))
	for i, c := range clients {
		sent.Add(1)
		go func() {
			defer sent.Done()
			time.Sleep(time.Duration(rand.Int64N(int64(period))))
			t := time.NewTicker(period)
			defer t.Stop()
			for time.Now().Before(end) {
				if c.send() == nil {
					counts[i]++
				}
				<-t.C
			}
		}()
	}
	sent.Wait()
	total := 0
	for _, n := range counts {
		total += n
	}
	return total
}

// saturate lets every client send its next update once the previous one
// was acknowledged, and returns the acknowledged updates per second.
func saturate(o options, clients []*client, run *run) float64 {
	for _, c := range clients {
		for len(c.acks) > 0 {
			<-c.acks
		}
	}
	start := run.acked.Load()
	t0 := time.Now()
	end := t0.Add(o.sat)
	var wg sync.WaitGroup
	for _, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(end) {
				if c.send() != nil {
					return
				}
				select {
				case <-c.acks:
				case <-time.After(10 * time.Second):
					return
				}
			}
		}()
	}
	wg.Wait()
	return float64(run.acked.Load()-start) / time.Since(t0).Seconds()
}

func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d[int(p*float64(len(d)-1))]
}

func report(o options, rs []result) {
	fmt.Printf("\n%d clients over %d documents, steady %.2g updates/s per client for %s, saturation %s\n\n", o.clients, o.docs, o.rate, o.steady, o.sat)
	fmt.Println("| server | memory/connection | delivery p50 | p99 | updates sent | deliveries | CPU/update | CPU (cores) | sustained updates/s |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	for _, r := range rs {
		fmt.Printf("| %s | %.1f KiB | %s | %s | %d | %d | %s | %.2f | %.0f |\n", r.name, r.memPerConn/1024,
			r.p50.Round(100*time.Microsecond), r.p99.Round(100*time.Microsecond), r.sent, r.delivered,
			r.cpuPerUpdate.Round(time.Microsecond), r.cpuShare, r.sustained)
		if r.connectErrs > 0 || r.badRecv > 0 {
			fmt.Printf("  (%s: %d clients failed to connect, %d updates unreadable)\n", r.name, r.connectErrs, r.badRecv)
		}
	}
}

func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("run from inside the repository (no go.work found)")
		}
		dir = parent
	}
}
