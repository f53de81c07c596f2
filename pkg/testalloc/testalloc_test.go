package testalloc

import (
	"sync"
	"testing"
)

var sink []byte

func TestPathThatAllocatesIsCountedEveryTime(t *testing.T) {
	if got := PerRun(20, func() { sink = make([]byte, 64) }); got != 1 {
		t.Fatalf("PerRun of one allocation per run = %v, want 1", got)
	}
}

// Allocations made by another goroutine during one measurement only are
// not the path's: the next measurement shows it allocates nothing.
func TestAnotherGoroutinesAllocationsAreLeftOut(t *testing.T) {
	measurements := 0
	got := PerRun(10, func() {})
	if got != 0 {
		t.Fatalf("PerRun of an empty function = %v, want 0", got)
	}
	noisy := func() {
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { // counted, though not the path's
			defer wg.Done()
			for range 50 {
				sink = make([]byte, 64)
			}
		}()
		wg.Wait()
	}
	got = PerRun(10, func() {
		measurements++
		if measurements <= 11 { // the first measurement: a warm-up and 10 runs
			noisy()
		}
	})
	if got != 0 {
		t.Fatalf("PerRun with noise in the first measurement only = %v, want 0", got)
	}
	if measurements <= 11 {
		t.Fatalf("%d runs: PerRun stopped after the noisy measurement", measurements)
	}
}
