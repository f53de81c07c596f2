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
// the previous one was acknowledged (sustained updates/s). The clients
// share the machine with the server, so their own CPU is measured per phase
// beside the server's, and they are kept lean (ws.go, poller.go).
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"time"
)

type options struct {
	clients, docs int
	rate          float64
	steady, sat   time.Duration
	rounds        int           // saturation phases per server, alternated
	quiet         time.Duration // how long every server must be quiet before a saturation phase
	only          string
	cpuProfile    string
	loops         int
	profile       string // directory for CPU profiles of ours; empty: none
	trace         string // file for an execution trace of ours; empty: none
}

type result struct {
	name                 string
	memPerConn           float64 // bytes
	p50, p99             time.Duration
	sent, delivered      int
	steadyCPU, satCPU    phaseCPU
	sustained            float64 // acknowledged updates/s when saturated
	satAcked             int64
	rounds               []float64     // acknowledged updates/s of each saturation phase
	idleCPU              time.Duration // its server's CPU during the other server's saturation phases
	connectErrs, badRecv int64
	lost                 int64 // connections that ended during the phases
}

func main() {
	var o options
	flag.IntVar(&o.clients, "clients", 1000, "WebSocket clients")
	flag.IntVar(&o.docs, "docs", 100, "documents the clients spread over")
	flag.Float64Var(&o.rate, "rate", 1, "updates per client per second in the steady phase")
	flag.DurationVar(&o.steady, "steady", 20*time.Second, "steady phase")
	flag.DurationVar(&o.sat, "saturate", 10*time.Second, "saturation phase (each round)")
	flag.IntVar(&o.rounds, "rounds", 3, "saturation phases per server, the servers alternating")
	flag.DurationVar(&o.quiet, "quiet", defaultQuiet, "how long every server must stay under 5% of a core before a saturation phase starts")
	flag.StringVar(&o.only, "only", "", "run only this server: ours or hocuspocus")
	flag.StringVar(&o.cpuProfile, "cpuprofile", "", "write CPU profiles of the clients' steady and saturation phases to <this>-<ours|hocuspocus>-<phase>.pprof")
	flag.IntVar(&o.loops, "loops", runtime.GOMAXPROCS(0), "epoll loops reading the clients' sockets")
	flag.StringVar(&o.trace, "trace", "", "write an execution trace of ours in the steady phase to this file")
	flag.StringVar(&o.profile, "profile", "", "write CPU profiles of ours (the server: steady.pprof, saturation.pprof) its heap allocations, and its live heap and goroutines before and after the connections to this directory")
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
	// Both servers stay up until the end: their saturation rounds
	// alternate (rounds.go). Each is alone for its connections and steady
	// phase, but for the other's idle process.
	var sessions []*session
	defer func() {
		for _, ss := range sessions {
			ss.close()
		}
	}()
	if o.only != "hocuspocus" {
		dir, err := os.MkdirTemp("", "realtimebench")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		s, token, err := startOurs(dir, "bench", o.profile != "" || o.trace != "")
		if err != nil {
			return err
		}
		ss, err := open(o, s, token, "ours")
		if err != nil {
			return err
		}
		sessions = append(sessions, ss)
	}
	if o.only != "ours" {
		s, err := startHocuspocus(repo)
		if err != nil {
			return err
		}
		ss, err := open(o, s, "any", "hocuspocus")
		if err != nil {
			return err
		}
		sessions = append(sessions, ss)
	}
	saturationRounds(o, sessions)
	results := make([]result, len(sessions))
	for i, ss := range sessions {
		results[i] = ss.res
	}
	report(o, results)
	return nil
}

// session is one server with its clients connected, from its steady
// phase to the end of the run.
type session struct {
	s       *server
	key     string // ours or hocuspocus: names its profiles
	run     *run
	clients []*client
	res     result
}

// open connects the clients to s (memory per connection) and runs the
// steady phase (delivery latency, CPU).
func open(o options, s *server, token, key string) (*session, error) {
	ss := &session{s: s, key: key, res: result{name: s.name}}
	res := &ss.res
	time.Sleep(2 * time.Second)
	base := s.rss()
	s.snapshot(o.profile, "idle")
	run, err := newRun(o.clients, max(o.loops, 1))
	if err != nil {
		s.stop()
		return nil, err
	}
	ss.run = run
	clients, err := connect(o, s, run, token, res)
	if err != nil {
		ss.close()
		return nil, err
	}
	ss.clients = clients
	go run.keepAware(clients, renewAfter, run.stopped)
	time.Sleep(2 * time.Second)
	res.memPerConn = float64(s.rss()-base) / float64(len(clients))
	s.snapshot(o.profile, "connected")

	maxSends := int(math.Ceil(o.rate*o.steady.Seconds())) + 1
	for _, c := range clients {
		c.wmu.Lock()
		c.sends.start(c.clock, maxSends)
		c.wmu.Unlock()
	}
	run.measure.Store(true)
	stopProfile := startProfile(o.cpuProfile, key+"-steady")
	stopServerProfile := s.profile(o.profile, "steady", o.steady)
	cpu := startCPU(s)
	var traced chan error
	if o.trace != "" && s.pprof != "" {
		traced = traceSteady(s, o.trace)
	}
	res.sent = steady(o, clients)
	stopServerProfile()
	if traced != nil {
		if err := <-traced; err != nil {
			ss.close()
			return nil, err
		}
	}
	time.Sleep(time.Second) // let the last deliveries land
	run.measure.Store(false)
	res.steadyCPU = cpu.stop()
	stopProfile()
	var lat []time.Duration
	for _, c := range clients {
		lat = append(lat, c.latencies()...)
	}
	res.delivered = len(lat)
	res.p50, res.p99 = percentile(lat, 0.50), percentile(lat, 0.99)
	res.badRecv = run.errors.Load()
	return ss, nil
}

// close ends the clients and stops the server.
func (ss *session) close() {
	ss.run.stop()
	ss.s.stop()
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
			c, err := dial(run, s.url, name, token, i)
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
	run.clients = clients
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

func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d[int(p*float64(len(d)-1))]
}

func report(o options, rs []result) {
	fmt.Printf("\n%d clients over %d documents, steady %.2g updates/s per client for %s, saturation %d × %s per server (alternating)\n\n", o.clients, o.docs, o.rate, o.steady, max(o.rounds, 1), o.sat)
	fmt.Println("| server | memory/connection | delivery p50 | p99 | updates sent | deliveries | CPU/update | CPU (cores) | sustained updates/s | saturated: server cores | client cores | client CPU/update |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, r := range rs {
		st, sat := r.steadyCPU, r.satCPU
		fmt.Printf("| %s | %.1f KiB | %s | %s | %d | %d | %s | %.2f | %.0f | %.2f | %.2f | %s |\n", r.name, r.memPerConn/1024,
			r.p50.Round(100*time.Microsecond), r.p99.Round(100*time.Microsecond), r.sent, r.delivered,
			per(st.server, float64(r.sent)).Round(time.Microsecond), st.cores(st.server), r.sustained,
			sat.cores(sat.server), sat.cores(sat.client), per(sat.client, float64(r.satAcked)).Round(100*time.Nanosecond))
	}
	fmt.Println()
	for _, r := range rs {
		st := r.steadyCPU
		sat := r.satCPU
		fmt.Printf("%s: clients' CPU steady %.2f cores, %s per update sent; saturated %.2f cores; in the kernel %.0f%% and %.0f%%\n", r.name,
			st.cores(st.client), per(st.client, float64(r.sent)).Round(100*time.Nanosecond), sat.cores(sat.client),
			100*st.clientSys.Seconds()/max(st.client.Seconds(), 1e-9), 100*sat.clientSys.Seconds()/max(sat.client.Seconds(), 1e-9))
		fmt.Printf("%s: saturation rounds %s updates/s", r.name, roundRates(r.rounds))
		if len(rs) > 1 {
			fmt.Printf("; %s of CPU while the other server's rounds ran", r.idleCPU.Round(10*time.Millisecond))
		}
		fmt.Println()
		if r.connectErrs > 0 || r.badRecv > 0 || r.lost > 0 {
			fmt.Printf("  (%s: %d clients failed to connect, %d updates unreadable, %d connections lost)\n", r.name, r.connectErrs, r.badRecv, r.lost)
		}
	}
	if lines := goalLines(rs); lines != nil {
		fmt.Println()
		for _, l := range lines {
			fmt.Println(l)
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
