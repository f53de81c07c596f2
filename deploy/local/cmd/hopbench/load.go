package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"sync"
	"syscall"
	"time"

	"github.com/opencollab/backend/deploy/local/system"
	"github.com/opencollab/backend/pkg/internalauth"
)

type caller struct {
	sys    *system.System
	hc     *http.Client
	signer *internalauth.Signer
	wsID   string
}

func newCaller(sys *system.System, conc int) *caller {
	tr := &http.Transport{MaxIdleConns: 4 * conc, MaxIdleConnsPerHost: 4 * conc, IdleConnTimeout: time.Minute}
	return &caller{sys: sys, hc: &http.Client{Transport: tr}, signer: internalauth.NewSigner(sys.InternalSecret)}
}

// seed creates the organization and its users through the gateway, and
// learns the workspace id by asking the workspace service as the gateway
// does.
func (c *caller) seed(ctx context.Context, users int) error {
	list := make([]map[string]any, users)
	for i := range list {
		list[i] = map[string]any{"userId": fmt.Sprintf("user-%03d", i), "name": fmt.Sprintf("User %d", i), "email": fmt.Sprintf("u%d@example.com", i)}
	}
	body, _ := json.Marshal(map[string]any{"data": map[string]any{"organizationId": "bench-org", "users": list}})
	if code, b := c.do(c.gatewayRequest(body)()); code != 200 {
		return fmt.Errorf("seed users: %d %s", code, b)
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.sys.ServiceURLs["workspace"]+"/internal/credentials/lookup",
		bytes.NewReader([]byte(`{"data":{"apiKey":"`+c.sys.Credentials.APIKey+`"}}`)))
	c.signer.Sign(req.Header, internalauth.Service("gateway"))
	code, b := c.do(req)
	var out struct {
		Result struct {
			Data struct {
				WorkspaceID string `json:"workspaceId"`
			} `json:"data"`
		} `json:"result"`
	}
	if err := json.Unmarshal(b, &out); err != nil || code != 200 {
		return fmt.Errorf("workspace lookup: %d %s", code, b)
	}
	c.wsID = out.Result.Data.WorkspaceID
	return nil
}

func (c *caller) do(req *http.Request) (int, []byte) {
	resp, err := c.hc.Do(req)
	if err != nil {
		return 0, []byte(err.Error())
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

func (c *caller) directRequest(body []byte) func() *http.Request {
	url := c.sys.ServiceURLs["identity"] + "/v2/users/get"
	return func() *http.Request {
		req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		c.signer.Sign(req.Header, internalauth.Workspace(c.wsID))
		return req
	}
}

func (c *caller) gatewayRequest(body []byte) func() *http.Request {
	url := c.sys.GatewayURL + "/v2/users/get"
	return func() *http.Request {
		req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("x-svc-api-key", c.sys.Credentials.APIKey)
		req.Header.Set("x-svc-auth-token", c.sys.Credentials.AuthToken)
		return req
	}
}

type phase struct {
	requests, failures int
	elapsed            time.Duration
	cpu                time.Duration
	latencies          []time.Duration
}

// load runs conc workers for d and records every latency.
func (c *caller) load(ctx context.Context, newReq func() *http.Request, d time.Duration, conc int) phase {
	var mu sync.Mutex
	var p phase
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	cpu0, start := cpuTime(), time.Now()
	var wg sync.WaitGroup
	for w := 0; w < conc; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var lat []time.Duration
			fails := 0
			for ctx.Err() == nil {
				t0 := time.Now()
				code, _ := c.do(newReq())
				lat = append(lat, time.Since(t0))
				if code != 200 {
					fails++
				}
			}
			mu.Lock()
			p.latencies = append(p.latencies, lat...)
			p.failures += fails
			mu.Unlock()
		}()
	}
	wg.Wait()
	p.elapsed, p.cpu = time.Since(start), cpuTime()-cpu0
	p.requests = len(p.latencies)
	sort.Slice(p.latencies, func(i, j int) bool { return p.latencies[i] < p.latencies[j] })
	return p
}

func (p phase) rps() float64 { return float64(p.requests) / p.elapsed.Seconds() }

func (p phase) pct(q float64) time.Duration {
	if len(p.latencies) == 0 {
		return 0
	}
	return p.latencies[int(q*float64(len(p.latencies)-1))]
}

func (p phase) cpuPerRequest() time.Duration {
	if p.requests == 0 {
		return 0
	}
	return p.cpu / time.Duration(p.requests)
}

// cpuTime is this process's user+system CPU time: load generator, gateway
// and services all run here, so the difference between the two phases is
// what the gateway hop adds.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func report(w io.Writer, direct, gw phase, conc int) {
	fmt.Fprintf(w, "users/get, %d concurrent clients, loopback, one process (load generator included in CPU)\n\n", conc)
	fmt.Fprintf(w, "| path | requests/s | p50 | p99 | CPU/request | failures |\n|---|---|---|---|---|---|\n")
	for _, r := range []struct {
		name string
		p    phase
	}{{"direct to svc-identity", direct}, {"through gateway", gw}} {
		fmt.Fprintf(w, "| %s | %.0f | %v | %v | %v | %d |\n", r.name, r.p.rps(), r.p.pct(0.5).Round(time.Microsecond),
			r.p.pct(0.99).Round(time.Microsecond), r.p.cpuPerRequest().Round(time.Microsecond), r.p.failures)
	}
	fmt.Fprintf(w, "\nthroughput ratio gateway/direct: %.2f\n", gw.rps()/direct.rps())
	fmt.Fprintf(w, "CPU added by the gateway hop: %v per request\n", (gw.cpuPerRequest() - direct.cpuPerRequest()).Round(time.Microsecond))
}
