package gateway

import (
	"os"
	"os/exec"
	"runtime"
	"testing"

	"github.com/opencollab/backend/pkg/racedetector"
)

// allocChildEnv marks the child process that counts a proxied request's
// allocations.
const allocChildEnv = "GATEWAY_TEST_ALLOC_CHILD"

// maxAllocsPerProxiedRequest is what a proxied request allocates today on
// the lean inbound server, unsampled (the 99 % case at the production
// ratio): the call, the span's context and the request head's string.
const maxAllocsPerProxiedRequest = 3

// TestProxiedRequestAllocations pins the gateway's allocations per proxied
// request, counted over a keep-alive connection's requests in the
// in-memory hop of BenchmarkHopInMemory (authentication, rate limit,
// tracing, the upstream exchange). Tracing is installed process-wide, so
// the count is taken in a child process that runs only this test.
func TestProxiedRequestAllocations(t *testing.T) {
	if racedetector.Enabled {
		t.Skip("the race detector allocates on its own")
	}
	if os.Getenv(allocChildEnv) == "" {
		if testInbound != InboundH1 {
			t.Skip("counted once, on the lean inbound server")
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestProxiedRequestAllocations$")
		cmd.Env = append(os.Environ(), allocChildEnv+"=1", "GATEWAY_TEST_INBOUND="+InboundH1)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("counting process: %v\n%s", err, out)
		}
		return
	}
	serve := newMemHop(t, "0")
	serve(10) // the connection pool and the buffers
	const requests = 4000
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	c := serve(requests)
	runtime.ReadMemStats(&after)
	if c.answers != requests || c.bad != 0 {
		t.Fatalf("%d answers, %d not 200, want %d", c.answers, c.bad, requests)
	}
	// The connection's own allocations (client, server goroutine, buffers)
	// are a few dozen: well under 0.1 per request.
	perRequest := float64(after.Mallocs-before.Mallocs) / requests
	if perRequest > maxAllocsPerProxiedRequest+0.1 {
		t.Fatalf("%.2f allocations per proxied request, want at most %d", perRequest, maxAllocsPerProxiedRequest)
	}
	t.Logf("%.3f allocations per proxied request", perRequest)
}
