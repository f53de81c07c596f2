// Command hopbench measures what one proxy hop costs in front of a service:
// the same users/get request is sent to a stand-in service built like ours
// (Gin, internalauth, otelhttp, pkg/server) directly, through nginx (when
// installed) and through the gateway, each a process of its own, all in one
// invocation and interleaved. It reports throughput at each concurrency
// (wrk, closed loop), the CPU per request of the proxy and of the upstream
// (from /proc), and the latency each path adds at a fixed request rate
// (open loop, wrk2 style). Tracing is on in both the gateway and the
// upstream, sampled by a parent-based ratio sampler as in production.
//
//	flock /tmp/opencollab-bench.lock go run ./bench/cmd/hopbench
//
// Needs wrk for the throughput runs (apt-get install -y wrk; without it a
// Go closed-loop client is used, which costs more CPU of its own) and nginx
// for the nginx rows (apt-get install -y nginx-light).
package main

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/opencollab/backend/deploy/local/benchkit"
)

// options are the benchmark's settings.
type options struct {
	rounds      int
	slice       time.Duration
	concs       []int
	rate        int
	sampleRatio float64
	targets     []string
	profileDir  string
	proxyCores  int
	// upServer is the upstream's HTTP server (upstreamNetHTTP or upstreamH1).
	upServer    string
	latencyOnly bool
	// equalShare is the equal-rate runs' share of the slowest proxy's
	// throughput (equalrate.go); 0: none.
	equalShare float64
	latencyRT  bool
	pollIdle   bool
	// warmup is how long every path is driven before the first round.
	warmup time.Duration
	// gatewayB is another hopbench build whose gateway is target
	// gateway-b; "": none.
	gatewayB string
}

func (o options) wants(name string) bool { return slices.Contains(o.targets, name) }

func main() {
	var (
		o                           options
		role, concs, targets        string
		secret, upstream, redisAddr string
		inbound                     string
		withPprof                   bool
	)
	flag.StringVar(&role, "role", "", "internal: run as the upstream or gateway process")
	flag.StringVar(&secret, "secret", "", "internal: the internal secret (roles)")
	flag.StringVar(&upstream, "upstream", "", "internal: the upstream URL (gateway role)")
	flag.StringVar(&redisAddr, "redis", "", "internal: the Redis address (gateway role)")
	flag.BoolVar(&withPprof, "pprof", false, "internal: serve pprof (roles)")
	flag.StringVar(&inbound, "inbound", "h1", "internal: the gateway's inbound server (gateway role)")
	flag.IntVar(&o.rounds, "rounds", 3, "interleaved rounds; every run of a round is repeated in each")
	flag.DurationVar(&o.slice, "slice", 4*time.Second, "length of each measured run")
	flag.DurationVar(&o.warmup, "warmup", 6*time.Second, "closed-loop warm-up of every path before the first round, long enough for the gateway's heap to be collected (a fresh heap costs a page fault per new page)")
	flag.StringVar(&concs, "concurrency", "16,64", "connections of the throughput runs")
	flag.IntVar(&o.rate, "rate", 2000, "requests/s of the fixed-rate latency runs")
	flag.Float64Var(&o.sampleRatio, "sample-ratio", 0.01, "trace sampling ratio (OTEL_TRACES_SAMPLER=parentbased_traceidratio)")
	flag.StringVar(&targets, "targets", "direct,nginx,gateway,gateway-std", "which paths to measure (gateway: inbound server h1; gateway-std: net/http; sketch: a bare Go event-loop proxy, the design's upper bound; split: the sketch with its clients served by a goroutine each, only the answers on loops)")
	flag.StringVar(&o.upServer, "upstream-server", upstreamNetHTTP, "the upstream's HTTP server: net/http (pkg/server, as our services run) or h1 (the gateway's, header map filled)")
	flag.IntVar(&o.proxyCores, "proxy-cores", 0, "cores each proxy may use (nginx workers, gateway GOMAXPROCS); 0: all")
	flag.BoolVar(&o.latencyRT, "latency-rt", true, "run the fixed-rate runs with this process, the upstream and the proxies in SCHED_RR (Linux, needs CAP_SYS_NICE), so the shared machine's other work cannot delay them")
	flag.BoolVar(&o.pollIdle, "poll-idle", false, "during the fixed-rate runs, keep idle CPUs polling instead of halting (Linux PM QoS, /dev/cpu_dma_latency at 0, needs root): on a virtual machine a halted CPU is woken through the host")
	flag.Float64Var(&o.equalShare, "equal-share", 0.8, "run every path open loop at this share of the slowest proxy's throughput too, for the upstream's CPU per request at one rate (0: no equal-rate runs)")
	flag.BoolVar(&o.latencyOnly, "latency-only", false, "only the fixed-rate latency runs (no throughput runs)")
	flag.StringVar(&o.gatewayB, "gateway-b", "", "a hopbench binary built from another commit (git worktree add, go build): its gateway runs as target gateway-b beside this build's gateway, in the same rounds, for an A/B of a code change (an A/A with the same build shows what a run can tell apart)")
	flag.StringVar(&o.profileDir, "profile", "", "write CPU profiles of the gateway and upstream (first gateway run at the highest concurrency) and execution traces of the gateway, the sketch and the split (first latency run) to this directory")
	flag.Parse()

	benchkit.Main("hopbench", func(ctx context.Context) (int, error) {
		switch role {
		case "upstream":
			return 0, runUpstream(ctx, secret, o.upServer, withPprof)
		case "sketch":
			return 0, runSketch(ctx, upstream, withPprof)
		case "split":
			return 0, runSplit(ctx, upstream, withPprof)
		case "gateway":
			return 0, runGateway(ctx, gatewayArgs{secret: secret, upstream: upstream, redis: redisAddr, inbound: inbound}, withPprof)
		case "":
			o.targets = strings.Split(targets, ",")
			if o.gatewayB != "" && !o.wants("gateway-b") {
				o.targets = append(o.targets, "gateway-b")
			}
			var err error
			if o.concs, err = parseInts(concs); err != nil {
				return 0, err
			}
			return 0, run(ctx, o)
		default:
			return 0, fmt.Errorf("unknown role %q", role)
		}
	})
}

func parseInts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("bad concurrency %q", f)
		}
		out = append(out, n)
	}
	return out, nil
}
