package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"

	"github.com/opencollab/backend/svc-memory/internal/vector"
)

// filterMode is one kind of query: a filter for the index and the same
// predicate over point indexes for the ground truth.
type filterMode struct {
	name   string
	filter vector.Filter
	keep   func(i int) bool // nil: every point
}

// filterModes: the whole workspace, one organization (scanned through its
// inverted list), a 25% field (graph walk at large sizes), and a set plus a
// date range that the inverted lists cannot narrow (estimated by sampling).
func filterModes(d *dataset, n int) []filterMode {
	half := int64(benchEpoch + n/2*1000)
	return []filterMode{
		{"workspace only (100%)", vector.Filter{WorkspaceID: "ws-bench"}, nil},
		{"one organization (1%)", vector.Filter{WorkspaceID: "ws-bench", OrganizationID: "org-042"},
			func(i int) bool { return i%d.orgs == 42 }},
		{"contentType (25%)", vector.Filter{WorkspaceID: "ws-bench", ContentType: "code"},
			func(i int) bool { return d.contents[(i/7)%len(d.contents)] == "code" }},
		{"2 of 4 decisions + newer half (25%)", vector.Filter{WorkspaceID: "ws-bench", Decisions: []string{"approved", "rejected"},
			CreatedFrom: half}, func(i int) bool { return i%4 <= 1 && benchEpoch+int64(i)*1000 >= half }},
	}
}

// path says which strategy the index uses for the mode.
func (m filterMode) path(idx *vector.Embedded) string {
	if idx.UsesGraph(m.filter, 10) {
		return "hnsw"
	}
	return "scan"
}

// efRow is one efSearch setting measured workspace-wide, for the
// side-by-side table.
type efRow struct {
	ef   int
	ours searchResult
}

func runSize(ctx context.Context, c config, n int) error {
	d := newDataset(c.dim, c.clusters, c.orgs, c.hard, c.seed)
	data := d.vectors(n)
	queries := d.vectors(c.queries)
	if c.snapshot {
		c.opts.SnapshotPath = filepath.Join(c.snapDir, fmt.Sprintf("vectorbench-%d.idx", n))
		os.Remove(c.opts.SnapshotPath)
	}
	before := heapInUse()
	idx, b, err := build(ctx, c, d, data)
	if err != nil {
		return err
	}
	b.heapBytes = float64(heapInUse() - before)
	raw := float64(len(data) * 4)
	fmt.Printf("\n## n=%d  build %.1fs wall, %.0f vectors/s wall, %.0f vectors/s per 2 CPU-s (cpu %.1fs)  index heap %.0f MiB (%.2fx the raw float32 vectors)  loadavg %s\n",
		n, b.wall.Seconds(), float64(n)/b.wall.Seconds(), 2*float64(n)/b.cpu.Seconds(), b.cpu.Seconds(),
		b.heapBytes/(1<<20), b.heapBytes/raw, loadAvg())
	modes := filterModes(d, n)
	if c.unfilteredOnly {
		modes = modes[:1]
	}
	truths := make([][][]int32, len(modes))
	for i, m := range modes {
		truths[i] = groundTruth(ctx, data, queries, c.dim, 10, c.gtWorkers, m.keep)
	}
	fmt.Println("| efSearch | filter | p50 ms | p99 ms | mean ms | CPU p50 ms | CPU p99 ms | recall@10 | path |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	var rows []efRow
	for _, ef := range append([]int{0}, c.efs...) {
		efText := "default"
		if ef > 0 {
			idx.SetEfSearch(ef)
			efText = strconv.Itoa(ef)
		} else {
			ef = vector.DefaultEfSearch
		}
		for i, mode := range modes {
			r, err := measureSearch(ctx, idx, queries, c.dim, mode.filter, truths[i])
			if err != nil {
				return err
			}
			if i == 0 {
				rows = append(rows, efRow{ef: ef, ours: r})
			}
			fmt.Printf("| %s | %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.4f | %s |\n", efText, mode.name, r.p50, r.p99, r.mean,
				r.cpu50, r.cpu99, r.recall, mode.path(idx))
		}
	}
	if err := measureCeiling(ctx, idx, queries, c.dim, truths[0]); err != nil {
		return err
	}
	idx.SetEfSearch(vector.DefaultEfSearch)
	if c.snapshot {
		if err := measureSnapshot(ctx, c, idx, queries, truths[0]); err != nil {
			return err
		}
	} else {
		idx.Close()
	}
	idx = nil
	runtime.GC()
	if !c.anchor {
		return nil
	}
	efs := make([]int, len(rows))
	for i, r := range rows {
		efs[i] = r.ef
	}
	anchor, err := runAnchor(ctx, c, data, queries, truths[0], efs)
	if err != nil {
		return err
	}
	printSideBySide(n, raw, b, rows, anchor)
	return nil
}

// printSideBySide compares the index with hnswlib on the workspace-wide
// queries: build, memory, and latency at each efSearch, then at the
// smallest efSearch each reaches recall@10 0.98 with.
func printSideBySide(n int, raw float64, b buildResult, rows []efRow, a anchorResult) {
	fmt.Printf("\n### n=%d side by side with hnswlib %s (same vectors, queries, truth; M/efConstruction/threads equal)\n\n", n, a.build.Version)
	fmt.Println("| | build wall | vectors/s | build CPU | index memory | × raw float32 |")
	fmt.Println("|---|---|---|---|---|---|")
	fmt.Printf("| ours | %.1f s | %.0f | %.1f s | %.0f MiB | %.2f |\n", b.wall.Seconds(), float64(n)/b.wall.Seconds(),
		b.cpu.Seconds(), b.heapBytes/(1<<20), b.heapBytes/raw)
	fmt.Printf("| hnswlib | %.1f s | %.0f | %.1f s | %.0f MiB | %.2f |\n", a.build.Seconds, float64(n)/a.build.Seconds,
		a.build.CPUSeconds, a.build.IndexBytes/(1<<20), a.build.IndexBytes/raw)
	fmt.Printf("| ours / hnswlib | %.2f | | %.2f | %.2f | |\n\n", b.wall.Seconds()/a.build.Seconds,
		b.cpu.Seconds()/a.build.CPUSeconds, b.heapBytes/a.build.IndexBytes)
	fmt.Println("| efSearch | ours recall@10 | ours p50 ms | ours p99 ms | hnswlib recall@10 | hnswlib p50 ms | hnswlib p99 ms |")
	fmt.Println("|---|---|---|---|---|---|---|")
	for i, r := range rows {
		if i >= len(a.searches) {
			break
		}
		h := a.searches[i]
		label := strconv.Itoa(r.ef)
		if i == 0 {
			label += " (default)"
		}
		fmt.Printf("| %s | %.4f | %.3f | %.3f | %.4f | %.3f | %.3f |\n", label, r.ours.recall, r.ours.p50, r.ours.p99, h.Recall, h.P50, h.P99)
	}
	const target = 0.98
	ours, theirs := -1, -1
	for i, r := range rows {
		if r.ours.recall >= target && (ours < 0 || r.ours.p50 < rows[ours].ours.p50) {
			ours = i
		}
	}
	for i, h := range a.searches {
		if h.Recall >= target && (theirs < 0 || h.P50 < a.searches[theirs].P50) {
			theirs = i
		}
	}
	if ours < 0 || theirs < 0 {
		fmt.Printf("\nrecall@10 %.2f: not reached by %s within the efSearch values measured\n", target,
			map[bool]string{true: "ours", false: "hnswlib"}[ours < 0])
		return
	}
	o, h := rows[ours], a.searches[theirs]
	fmt.Printf("\nat recall@10 >= %.2f: ours efSearch %d (recall %.4f) p50 %.3f ms, hnswlib efSearch %d (recall %.4f) p50 %.3f ms: ratio %.2f\n",
		target, o.ef, o.ours.recall, o.ours.p50, h.Ef, h.Recall, h.P50, o.ours.p50/h.P50)
}
