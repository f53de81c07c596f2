package gateway

import (
	"bytes"
	"io"
	"net/http"
	"syscall"
	"testing"
	"time"
)

// BenchmarkProxy compares a call straight to a service with the same call
// through the gateway (warm credentials, rate limit on), both over real
// loopback HTTP with keep-alive. The difference per op is what the gateway
// adds; allocations include the client's and the upstream's, so compare the
// two sub-benchmarks rather than reading either alone; cpu-µs/op is the
// process CPU per request (client, gateway and upstream together).
//
//	go test -run '^$' -bench BenchmarkProxy -benchtime 3s ./
func BenchmarkProxy(b *testing.B) {
	e := newEnv(b, func(c *Config) {
		c.RateLimitPerSecond = 1 << 40 // exercised, never refusing
		c.LogLevel = "info"
	})
	e.up[svcIdentity].quiet.Store(true)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1024, DisableCompression: true}}
	b.Cleanup(client.CloseIdleConnections)
	body := []byte(`{"data":{"userIds":["user-1","user-2"],"organizationId":"org-1"}}`)
	headers := http.Header{"X-Svc-Api-Key": {testKey}, "X-Svc-Auth-Token": {testToken}, "Content-Type": {"application/json"}}

	run := func(b *testing.B, url string) {
		b.ReportAllocs()
		b.SetParallelism(8)
		cpu0 := processCPU()
		defer func() { b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/float64(b.N), "cpu-µs/op") }()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
				if err != nil {
					b.Error(err)
					return
				}
				req.Header = headers.Clone()
				resp, err := client.Do(req)
				if err != nil {
					b.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Errorf("status %d", resp.StatusCode)
					return
				}
			}
		})
	}
	b.Run("direct", func(b *testing.B) { run(b, e.up[svcIdentity].srv.URL+"/v2/users/get") })
	b.Run("gateway", func(b *testing.B) { run(b, e.srv.URL+"/v2/users/get") })
}

// processCPU is the CPU time (user + system) this process has used. It is
// reported per op because the machine may be shared: wall time per op
// depends on the neighbours, CPU per op much less. gateway minus direct is
// the CPU the gateway adds per request, both of its HTTP hops included.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
