package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/alicebob/miniredis/v2"

	"github.com/opencollab/backend/pkg/internalauth"
)

// stack is what runs for the benchmark: the upstream, the gateway and
// nginx as processes of their own, and in this process Redis (for the
// gateway's rate limit and credential cache) and a trace collector that
// accepts and drops the OTLP exports of both.
type stack struct {
	dir      string
	redis    *miniredis.Miniredis
	sink     *traceSink
	upstream *proc
	gateway  *proc // inbound server h1
	gwStd    *proc // inbound server net/http; nil unless wanted
	gwB      *proc // another build's gateway (-gateway-b); nil unless given
	sketch   *proc // the event-loop sketch (sketch_linux.go); nil unless wanted
	split    *proc // its answer half alone (split_linux.go); nil unless wanted
	nginx    *proc // nil when nginx is not installed
	signer   *internalauth.Signer
}

const benchSecret = "hopbench-internal-secret"

func startStack(dir string, o options) (*stack, error) {
	s := &stack{dir: dir, signer: internalauth.NewSigner(benchSecret)}
	var err error
	if s.redis, err = miniredis.Run(); err != nil {
		return nil, err
	}
	if s.sink, err = startTraceSink(); err != nil {
		s.close()
		return nil, err
	}
	// Tracing as in production: exported over OTLP, sampled by a
	// parent-based ratio sampler, so the gateway starts (and propagates) a
	// span for every request and the upstream follows its decision.
	env := []string{
		"OTEL_EXPORTER_OTLP_ENDPOINT=" + s.sink.url,
		"OTEL_TRACES_SAMPLER=parentbased_traceidratio",
		"OTEL_TRACES_SAMPLER_ARG=" + strconv.FormatFloat(o.sampleRatio, 'f', -1, 64),
	}
	pprofArg := "-pprof=" + strconv.FormatBool(o.profileDir != "")
	if s.upstream, err = startRole(dir, "upstream", []string{"-secret", benchSecret, pprofArg, "-upstream-server", o.upServer}, env); err != nil {
		s.close()
		return nil, err
	}
	upURL := "http://" + s.upstream.addr
	gwEnv := env
	if o.proxyCores > 0 {
		gwEnv = append(slices.Clip(env), "GOMAXPROCS="+strconv.Itoa(o.proxyCores))
	}
	gwArgs := []string{"-secret", benchSecret, "-upstream", upURL, "-redis", s.redis.Addr(), pprofArg}
	self, err := os.Executable()
	if err != nil {
		s.close()
		return nil, err
	}
	if s.gateway, err = startRole(dir, "gateway", append(gwArgs, "-inbound=h1"), gwEnv); err != nil {
		s.close()
		return nil, err
	}
	if o.wants("gateway-std") {
		if s.gwStd, err = startRoleOf(self, "gateway-std", dir, "gateway", append(gwArgs, "-inbound=net/http"), gwEnv); err != nil {
			s.close()
			return nil, err
		}
	}
	if o.gatewayB != "" {
		if s.gwB, err = startRoleOf(o.gatewayB, "gateway-b", dir, "gateway", append(gwArgs, "-inbound=h1"), gwEnv); err != nil {
			s.close()
			return nil, fmt.Errorf("-gateway-b: %w", err)
		}
	}
	if o.wants("sketch") {
		if s.sketch, err = startRole(dir, "sketch", []string{"-upstream", s.upstream.addr, pprofArg}, gwEnv); err != nil {
			s.close()
			return nil, err
		}
	}
	if o.wants("split") {
		if s.split, err = startRole(dir, "split", []string{"-upstream", s.upstream.addr, pprofArg}, gwEnv); err != nil {
			s.close()
			return nil, err
		}
	}
	if o.wants("nginx") {
		s.nginx, err = startNginx(dir, s.upstream.addr, o.proxyCores)
		if err != nil {
			fmt.Fprintln(os.Stderr, "hopbench:", err)
		}
	}
	return s, nil
}

func (s *stack) close() {
	for _, p := range []*proc{s.nginx, s.gateway, s.gwStd, s.gwB, s.sketch, s.split, s.upstream} {
		p.stop()
	}
	if s.sink != nil {
		_ = s.sink.srv.Close()
	}
	if s.redis != nil {
		s.redis.Close()
	}
}

// target is one way to reach the upstream's users/get.
type target struct {
	name  string
	addr  string
	proxy *proc // nil: direct
	// headers are the request's headers besides Host and Content-Length,
	// built anew for each run because signatures age.
	headers func() [][2]string
}

// targets lists the wanted targets that are running, direct first.
func (s *stack) targets(o options) []*target {
	signed := func() [][2]string {
		h := http.Header{}
		s.signer.Sign(h, internalauth.Workspace(benchWorkspace))
		return [][2]string{{"Content-Type", "application/json"},
			{internalauth.HeaderPrincipal, h.Get(internalauth.HeaderPrincipal)},
			{internalauth.HeaderTimestamp, h.Get(internalauth.HeaderTimestamp)},
			{internalauth.HeaderSignature, h.Get(internalauth.HeaderSignature)}}
	}
	customer := func() [][2]string {
		return [][2]string{{"Content-Type", "application/json"},
			{"X-Svc-Api-Key", benchAPIKey}, {"X-Svc-Auth-Token", benchToken}}
	}
	var ts []*target
	// The direct and nginx clients send the signed principal the gateway
	// would add: the upstream gets the same request all three ways.
	if o.wants("direct") {
		ts = append(ts, &target{name: "direct", addr: s.upstream.addr, headers: signed})
	}
	if o.wants("nginx") && s.nginx != nil {
		ts = append(ts, &target{name: "nginx", addr: s.nginx.addr, proxy: s.nginx, headers: signed})
	}
	if o.wants("gateway") {
		ts = append(ts, &target{name: "gateway", addr: s.gateway.addr, proxy: s.gateway, headers: customer})
	}
	if s.gwB != nil {
		ts = append(ts, &target{name: "gateway-b", addr: s.gwB.addr, proxy: s.gwB, headers: customer})
	}
	if s.sketch != nil {
		ts = append(ts, &target{name: "sketch", addr: s.sketch.addr, proxy: s.sketch, headers: signed})
	}
	if s.split != nil {
		ts = append(ts, &target{name: "split", addr: s.split.addr, proxy: s.split, headers: signed})
	}
	if s.gwStd != nil {
		ts = append(ts, &target{name: "gateway-std", addr: s.gwStd.addr, proxy: s.gwStd, headers: customer})
	}
	return ts
}

// traceSink is an OTLP/HTTP endpoint that counts and drops exports.
type traceSink struct {
	srv     *http.Server
	url     string
	exports atomic.Int64
}

func startTraceSink() (*traceSink, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	t := &traceSink{url: "http://" + ln.Addr().String()}
	t.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if r.URL.Path == "/v1/traces" {
			t.exports.Add(1)
		}
		w.WriteHeader(http.StatusOK)
	}), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = t.srv.Serve(ln) }()
	return t, nil
}

// profileCPU fetches a CPU profile of p lasting d into dir/<name>.pprof.
func profileCPU(p *proc, dir string, d time.Duration) error {
	return fetchProfile(p, "profile", d, filepath.Join(dir, p.name+".pprof"))
}

// traceExecution fetches an execution trace of p lasting d into
// dir/<name>.trace (read it with bench/schedwait or go tool trace).
func traceExecution(p *proc, dir string, d time.Duration) error {
	return fetchProfile(p, "trace", d, filepath.Join(dir, p.name+".trace"))
}

// fetchProfile saves p's /debug/pprof/<kind> taken over d into path.
func fetchProfile(p *proc, kind string, d time.Duration, path string) error {
	url := fmt.Sprintf("http://%s/debug/pprof/%s?seconds=%d", p.pprof, kind, int(d.Seconds()))
	resp, err := http.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s of %s: %s", kind, p.name, resp.Status)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(f, resp.Body)
	return err
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

func dialable(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err == nil {
		_ = c.Close()
	}
	return err == nil
}

// checkTarget sends one request and wants a 200. For the gateway it also
// resolves the credentials once, so no measured run pays the first lookup.
func checkTarget(t *target) error {
	rc, err := dialRaw(t.addr)
	if err != nil {
		return err
	}
	defer rc.close()
	status, err := rc.roundTrip(buildRequest(t.addr, t.headers()))
	if err == nil && status != 200 {
		err = fmt.Errorf("%s answered %d", t.name, status)
	}
	return err
}
