package vector_test

import (
	"testing"

	"github.com/opencollab/backend/svc-memory/internal/vector"
)

func newEmbedded(opts vector.Options) newIndexFunc {
	return func(t *testing.T, dim int) vector.Index {
		t.Helper()
		opts.Dim = dim
		idx, err := vector.NewEmbedded(opts)
		if err != nil {
			t.Fatalf("NewEmbedded: %v", err)
		}
		t.Cleanup(func() { idx.Close() })
		return idx
	}
}

// The contract at the default threshold (every fixture is below it: exact
// scans over the inverted lists) and with low thresholds that force the
// HNSW graph and the filtered graph walk. One worker keeps graph builds,
// and so these results, reproducible (parallel builds are checked by
// recall in hnsw_test.go).
func TestEmbeddedContract(t *testing.T) {
	t.Parallel()
	variants := []struct {
		name string
		opts vector.Options
	}{
		{"exact", vector.Options{}},
		{"hnsw-threshold-20", vector.Options{ExactThreshold: 20, Workers: 1}},
		{"hnsw-threshold-1", vector.Options{ExactThreshold: 1, Workers: 1}},
	}
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) { runContract(t, newEmbedded(v.opts)) })
	}
}
