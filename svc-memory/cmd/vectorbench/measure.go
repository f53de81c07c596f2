package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"time"

	"golang.org/x/sys/unix"

	"github.com/opencollab/backend/svc-memory/internal/vector"
)

type buildResult struct {
	wall, cpu time.Duration
	heapBytes float64
}

// build upserts the points in batches, as the service's rebuild from
// MongoDB would, and times it in wall-clock and CPU time (the machine is
// shared, so the CPU figure shows what two whole cores would give).
func build(ctx context.Context, c config, d *dataset, data []float32) (*vector.Embedded, buildResult, error) {
	idx, err := vector.NewEmbedded(c.opts)
	if err != nil {
		return nil, buildResult{}, err
	}
	n := len(data) / c.dim
	batch := make([]vector.Point, 0, c.batch)
	cpu0, start := cpuTime(), time.Now()
	for i := 0; i < n; i += c.batch {
		batch = batch[:0]
		for j := i; j < min(i+c.batch, n); j++ {
			batch = append(batch, vector.Point{ID: pointID(j), Vector: data[j*c.dim : (j+1)*c.dim], Payload: d.payload(j)})
		}
		if err := idx.Upsert(ctx, batch...); err != nil {
			return nil, buildResult{}, err
		}
	}
	return idx, buildResult{wall: time.Since(start), cpu: cpuTime() - cpu0}, nil
}

type searchResult struct {
	p50, p99, mean float64 // ms, wall clock
	cpu50, cpu99   float64 // ms, CPU time of the querying thread
	recall         float64
}

// measureSearch times each query sequentially and compares the answers
// with the ground truth.
func measureSearch(ctx context.Context, idx *vector.Embedded, queries []float32, dim int, f vector.Filter, truth [][]int32) (searchResult, error) {
	const k = 10
	nq := len(queries) / dim
	lat := make([]time.Duration, nq)
	cpu := make([]time.Duration, nq)
	got := make([][]int32, nq)
	var total time.Duration
	// A search runs on the calling goroutine; pinned to one thread, that
	// thread's CPU clock measures the query's own cost, without the time
	// the shared machine's scheduler keeps it waiting.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for i := range nq {
		q := queries[i*dim : (i+1)*dim]
		cpu0, start := threadCPU(), time.Now()
		hits, err := idx.Search(ctx, q, f, k)
		lat[i], cpu[i] = time.Since(start), threadCPU()-cpu0
		if err != nil {
			return searchResult{}, err
		}
		total += lat[i]
		for _, h := range hits {
			got[i] = append(got[i], int32(pointIndex(h.ID)))
		}
	}
	slices.Sort(lat)
	slices.Sort(cpu)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	return searchResult{p50: ms(lat[nq/2]), p99: ms(lat[nq*99/100]), mean: ms(total / time.Duration(nq)),
		cpu50: ms(cpu[nq/2]), cpu99: ms(cpu[nq*99/100]), recall: recallAt(got, truth)}, nil
}

// measureSnapshot saves the index, loads it into a fresh one (what a
// restart does) and checks the loaded index answers like the original.
func measureSnapshot(ctx context.Context, c config, idx *vector.Embedded, queries []float32, truth [][]int32) error {
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
	heapBefore := heapInUse()
	start = time.Now()
	loaded, err := vector.NewEmbedded(opts)
	if err != nil {
		return err
	}
	loadTime := time.Since(start)
	sample := min(len(truth), 200)
	r, err := measureSearch(ctx, loaded, queries[:sample*c.dim], c.dim, vector.Filter{WorkspaceID: "ws-bench"}, truth[:sample])
	if err != nil {
		return err
	}
	fmt.Printf("\nsnapshot: %.0f MiB, save %.2fs, load %.2fs (%d points, graph %v, heap %.0f MiB), after load p50 %.3f ms recall@10 %.4f\n",
		float64(st.Size())/(1<<20), saved.Seconds(), loadTime.Seconds(), loaded.Len(), loaded.Stats().Graph,
		float64(heapInUse()-heapBefore)/(1<<20), r.p50, r.recall)
	return loaded.Close()
}

func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}

// measureCeiling is the recall an exact scan of the stored (half
// precision) vectors reaches against the float32 truth: what no graph
// setting can exceed.
func measureCeiling(ctx context.Context, idx *vector.Embedded, queries []float32, dim int, truth [][]int32) error {
	sample := min(len(truth), 200)
	got := make([][]int32, sample)
	for i := range sample {
		hits, err := idx.SearchExact(ctx, queries[i*dim:(i+1)*dim], vector.Filter{WorkspaceID: "ws-bench"}, 10)
		if err != nil {
			return err
		}
		for _, h := range hits {
			got[i] = append(got[i], int32(pointIndex(h.ID)))
		}
	}
	fmt.Printf("\nexact scan of the stored half-precision vectors (%d queries): recall@10 %.4f against the float32 truth\n",
		sample, recallAt(got, truth[:sample]))
	return nil
}
