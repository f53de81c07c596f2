package main

import (
	"bytes"
	"runtime"
	"runtime/trace"
	"strings"
	"testing"
	"time"
)

// spin burns d of CPU without blocking or yielding.
func spin(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}

// recordPingPong traces, on one P, a goroutine that readies a second one
// and then keeps the P for busy before blocking: every wait of the second
// one is spent behind the first's run.
func recordPingPong(t *testing.T, rounds int, busy time.Duration) []byte {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var buf bytes.Buffer
	if err := trace.Start(&buf); err != nil {
		t.Fatal(err)
	}
	// pong is buffered so that the echo is back waiting on ping, and is
	// readied by the next send, before the sender starts spinning.
	ping, pong := make(chan struct{}), make(chan struct{}, 1)
	go func() {
		for range ping {
			pong <- struct{}{}
		}
	}()
	for range rounds {
		ping <- struct{}{} // readies the echo, which cannot run yet
		spin(busy)
		<-pong
	}
	close(ping)
	runtime.GC()
	trace.Stop()
	return buf.Bytes()
}

func TestWaitsBehindAnotherGoroutineAreCountedAsBusy(t *testing.T) {
	const rounds, busy = 50, 300 * time.Microsecond
	tl, err := readTimeline(bytes.NewReader(recordPingPong(t, rounds, busy)))
	if err != nil {
		t.Fatal(err)
	}
	long := tl.buckets()[len(bucketBounds)-1] // ≥ 200 µs
	if long.count < rounds*9/10 {
		t.Fatalf("%d waits of 200 µs or more, want about %d (one per round)", long.count, rounds)
	}
	if share := float64(long.busy) / float64(long.total); share < 0.9 {
		t.Errorf("another goroutine ran during %.0f %% of the long waits, want nearly all", 100*share)
	}
	if p := tl.quantile(0.999); p < busy*2/3 {
		t.Errorf("p99.9 wait %v, want about the %v the P was kept", p, busy)
	}
	if ran := tl.running(); ran < rounds*busy {
		t.Errorf("goroutines ran %v in all, want at least the %v the sender spun", ran, rounds*busy)
	}
	if tl.gcs < 1 {
		t.Errorf("%d GC cycles, want the one the test ran", tl.gcs)
	}
}

func TestReportShowsTheWaitsByLength(t *testing.T) {
	tl, err := readTimeline(bytes.NewReader(recordPingPong(t, 20, 300*time.Microsecond)))
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	tl.report(&out)
	for _, want := range []string{"waits from ready to running", "| ≥ 200 µs | ", "GC cycles", "goroutines ran "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}

// The echo's long waits are spent behind the test's goroutine, which
// spins: the kinds name it (testing.tRunner runs every test) as what ran
// during them, and the echo by its own function.
func TestLongWaitsNameWhatRanMeanwhile(t *testing.T) {
	tl, err := readTimeline(bytes.NewReader(recordPingPong(t, 30, 300*time.Microsecond)))
	if err != nil {
		t.Fatal(err)
	}
	behind := tl.behindKinds()
	if len(behind) == 0 || behind[0].kind != "testing.tRunner" {
		t.Fatalf("what ran during the long waits, most first: %v; want testing.tRunner first", behind)
	}
	if behind[0].d < 30*200*time.Microsecond {
		t.Errorf("testing.tRunner ran %v during the long waits, want most of 30 × 300 µs", behind[0].d)
	}
	echo := false
	for _, k := range tl.runningKinds() {
		echo = echo || strings.HasSuffix(k.kind, "recordPingPong.func1")
	}
	if !echo {
		t.Errorf("the echo goroutine is not among the kinds: %v", tl.runningKinds())
	}
	var out strings.Builder
	tl.report(&out)
	if !strings.Contains(out.String(), "| testing.tRunner | ") {
		t.Errorf("report lacks the kinds table:\n%s", out.String())
	}
}

func TestNotATraceIsAnError(t *testing.T) {
	if _, err := readTimeline(strings.NewReader("not a trace")); err == nil {
		t.Fatal("want an error for bytes that are no execution trace")
	}
}
