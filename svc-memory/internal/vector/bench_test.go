package vector

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkInsert measures graph build throughput (vectors/s) at 256
// dimensions, 10 000 points per iteration, forcing the HNSW path.
func BenchmarkInsert(b *testing.B) {
	const n, dim = 10000, 256
	pts := synthPoints(clustered(n, dim, 100, 3), "ws", 100)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		e, err := NewEmbedded(Options{Dim: dim, ExactThreshold: 1})
		if err != nil {
			b.Fatal(err)
		}
		if err := e.Upsert(ctx, pts...); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "vectors/s")
}

// BenchmarkSearch measures query latency at 10k and 100k points (256
// dimensions) with the default options, unfiltered (workspace only) and
// with a 1% organization filter.
func BenchmarkSearch(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		const dim = 256
		vecs := clustered(n+1000, dim, 100, 5)
		e, err := NewEmbedded(Options{Dim: dim})
		if err != nil {
			b.Fatal(err)
		}
		if err := e.Upsert(context.Background(), synthPoints(vecs[:n], "ws", 100)...); err != nil {
			b.Fatal(err)
		}
		queries := vecs[n:]
		for _, tc := range []struct {
			name string
			f    Filter
		}{
			{"workspace", Filter{WorkspaceID: "ws"}},
			{"organization", Filter{WorkspaceID: "ws", OrganizationID: "org7"}},
			{"contentType", Filter{WorkspaceID: "ws", ContentType: "code"}},
		} {
			b.Run(fmt.Sprintf("n=%d/%s", n, tc.name), func(b *testing.B) {
				i := 0
				for b.Loop() {
					if _, err := e.Search(context.Background(), queries[i%len(queries)], tc.f, 10); err != nil {
						b.Fatal(err)
					}
					i++
				}
			})
		}
	}
}
