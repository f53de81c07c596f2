package main

import (
	"context"
	"slices"
	"sync"

	"github.com/opencollab/backend/svc-memory/internal/vector"
)

// truthBlock is how many queries share one pass over the data: each data
// vector is read from memory once per block and scored against all of
// them while it sits in the L1 cache.
const truthBlock = 16

// groundTruth is the exact top k of every query among the points that
// keep accepts, by float32 cosine on the generated vectors: the reference
// for the index and for hnswlib alike (it does not depend on anything the
// index stores). Blocks of queries run on workers goroutines.
func groundTruth(ctx context.Context, data, queries []float32, dim, k, workers int, keep func(int) bool) [][]int32 {
	nq := len(queries) / dim
	truth := make([][]int32, nq)
	blocks := make(chan int)
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Go(func() {
			for start := range blocks {
				stop := min(start+truthBlock, nq)
				copy(truth[start:stop], exactBlock(data, queries[start*dim:stop*dim], dim, k, keep))
			}
		})
	}
	for start := 0; start < nq && ctx.Err() == nil; start += truthBlock {
		blocks <- start
	}
	close(blocks)
	wg.Wait()
	return truth
}

type candidate struct {
	score float32
	i     int32
}

func exactBlock(data, queries []float32, dim, k int, keep func(int) bool) [][]int32 {
	nq, n := len(queries)/dim, len(data)/dim
	best := make([][]candidate, nq) // each sorted best first, at most k
	for i := range n {
		if keep != nil && !keep(i) {
			continue
		}
		row := data[i*dim : (i+1)*dim]
		for q := range nq {
			s := vector.Dot(queries[q*dim:(q+1)*dim], row)
			b := best[q]
			if len(b) == k && s <= b[k-1].score {
				continue
			}
			at, _ := slices.BinarySearchFunc(b, s, func(c candidate, s float32) int {
				if c.score >= s {
					return -1
				}
				return 1
			})
			if len(b) < k {
				b = append(b, candidate{})
			}
			copy(b[at+1:], b[at:len(b)-1])
			b[at] = candidate{score: s, i: int32(i)}
			best[q] = b
		}
	}
	out := make([][]int32, nq)
	for q, b := range best {
		for _, c := range b {
			out[q] = append(out[q], c.i)
		}
	}
	return out
}

// recallAt is the share of the true top k found in got (point indexes).
func recallAt(got, want [][]int32) float64 {
	found, total := 0, 0
	for q := range want {
		total += len(want[q])
		for _, x := range got[q] {
			if slices.Contains(want[q], x) {
				found++
			}
		}
	}
	if total == 0 {
		return 1
	}
	return float64(found) / float64(total)
}
