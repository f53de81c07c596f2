package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/opencollab/backend/svc-memory/internal/vector"
)

type buildResult struct {
	wall, cpu time.Duration
	heapMB    float64
}

// build upserts the points in batches, as the service's rebuild from
// MongoDB would, and times it in wall-clock and CPU time (the machine is
// shared, so the CPU figure shows what two whole cores would give).
func build(ctx context.Context, c config, points []vector.Point) (*vector.Embedded, buildResult, error) {
	idx, err := vector.NewEmbedded(c.opts)
	if err != nil {
		return nil, buildResult{}, err
	}
	cpu0, start := cpuTime(), time.Now()
	for i := 0; i < len(points); i += c.batch {
		if err := idx.Upsert(ctx, points[i:min(i+c.batch, len(points))]...); err != nil {
			return nil, buildResult{}, err
		}
	}
	return idx, buildResult{wall: time.Since(start), cpu: cpuTime() - cpu0}, nil
}

type searchResult struct {
	p50, p99, mean float64 // ms, wall clock
	cpu50, cpu99   float64 // ms, CPU time of the querying thread
	recall         float64
	measured       bool
}

func (r searchResult) recallText() string {
	if !r.measured {
		return "-"
	}
	return fmt.Sprintf("%.4f", r.recall)
}

// measureSearch times each query sequentially, then compares the answers
// with exact search (computed in parallel, not timed).
func measureSearch(ctx context.Context, c config, idx *vector.Embedded, queries [][]float32, f vector.Filter, truth *[][]vector.Hit) (searchResult, error) {
	const k = 10
	lat := make([]time.Duration, len(queries))
	cpu := make([]time.Duration, len(queries))
	got := make([][]vector.Hit, len(queries))
	var total time.Duration
	// A search runs on the calling goroutine; pinned to one thread, that
	// thread's CPU clock measures the query's own cost, without the time
	// the shared machine's scheduler keeps it waiting.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for i, q := range queries {
		cpu0, start := threadCPU(), time.Now()
		hits, err := idx.Search(ctx, q, f, k)
		lat[i], cpu[i] = time.Since(start), threadCPU()-cpu0
		if err != nil {
			return searchResult{}, err
		}
		total += lat[i]
		got[i] = hits
	}
	slices.Sort(lat)
	slices.Sort(cpu)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	r := searchResult{p50: ms(lat[len(lat)/2]), p99: ms(lat[len(lat)*99/100]), mean: ms(total / time.Duration(len(lat))),
		cpu50: ms(cpu[len(cpu)/2]), cpu99: ms(cpu[len(cpu)*99/100])}
	if c.skipRecall {
		return r, nil
	}
	if *truth == nil {
		t, err := groundTruth(ctx, c, idx, queries, f, k)
		if err != nil {
			return r, err
		}
		*truth = t
	}
	found := 0
	for i := range queries {
		found += overlap(got[i], (*truth)[i])
	}
	r.recall, r.measured = float64(found)/float64(k*len(queries)), true
	return r, nil
}

// groundTruth computes the exact top k of every query (in parallel; it
// does not depend on efSearch, so callers keep it across runs).
func groundTruth(ctx context.Context, c config, idx *vector.Embedded, queries [][]float32, f vector.Filter, k int) ([][]vector.Hit, error) {
	truth := make([][]vector.Hit, len(queries))
	errs := make([]error, len(queries))
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(c.gtWorkers, 1) {
		wg.Go(func() {
			for i := range next {
				truth[i], errs[i] = idx.SearchExact(ctx, queries[i], f, k)
			}
		})
	}
	for i := range queries {
		next <- i
	}
	close(next)
	wg.Wait()
	return truth, errors.Join(errs...)
}

func overlap(got, want []vector.Hit) int {
	ids := make(map[string]bool, len(want))
	for _, h := range want {
		ids[h.ID] = true
	}
	n := 0
	for _, h := range got {
		if ids[h.ID] {
			n++
		}
	}
	return n
}

// measureSnapshot saves the index, loads it into a fresh one (what a
// restart does) and checks the loaded index answers like the original.
func measureSnapshot(ctx context.Context, c config, idx *vector.Embedded, queries [][]float32) error {
	opts := c.opts
	path := opts.SnapshotPath
	defer os.Remove(path)
	start := time.Now()
	if err := idx.Snapshot(ctx); err != nil {
		return err
	}
	saved := time.Since(start)
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	idx.Close()
	idx = nil
	heapBefore := heapInUse()
	start = time.Now()
	loaded, err := vector.NewEmbedded(opts)
	if err != nil {
		return err
	}
	loadTime := time.Since(start)
	var truth [][]vector.Hit
	r, err := measureSearch(ctx, c, loaded, queries[:min(len(queries), 200)], vector.Filter{WorkspaceID: "ws-bench"}, &truth)
	if err != nil {
		return err
	}
	fmt.Printf("\nsnapshot: %.0f MiB, save %.2fs, load %.2fs (%d points, graph %v, heap %.0f MiB), after load p50 %.3f ms recall@10 %s\n",
		float64(st.Size())/(1<<20), saved.Seconds(), loadTime.Seconds(), loaded.Len(), loaded.Stats().Graph,
		float64(heapInUse()-heapBefore)/(1<<20), r.p50, r.recallText())
	return loaded.Close()
}

func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
