package vector_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/opencollab/backend/svc-memory/internal/vector"
)

// fixture is a deterministic set of points in two workspaces plus the
// reference model answering the same queries by brute force.
type fixture struct {
	points []vector.Point
	byID   map[string]vector.Point
	rng    *rand.Rand
}

const baseTime = int64(1_700_000_000_000)

func newFixture(nA, nB int) *fixture {
	f := &fixture{byID: map[string]vector.Point{}, rng: rand.New(rand.NewPCG(42, 7))}
	for i := 0; i < nA+nB; i++ {
		ws := "ws-a"
		if i >= nA {
			ws = "ws-b"
		}
		reviewer := fmt.Sprintf("r%d", i%5)
		if i%25 == 3 {
			reviewer = "r-rare" // 4% of the points
		}
		p := vector.Point{
			ID:     fmt.Sprintf("j-%04d", i),
			Vector: f.randomVector(),
			Payload: vector.Payload{
				WorkspaceID:    ws,
				OrganizationID: []string{"o1", "o2", "o3"}[i%3],
				DocumentID:     fmt.Sprintf("d%d", i%10),
				Decision:       []string{"approved", "rejected", "comment", "resolve"}[i%4],
				JudgeType:      []string{"user", "agent"}[i%2],
				ContentType:    []string{"text", "code", "table"}[(i/2)%3],
				ReviewerID:     reviewer,
				AnnotationID:   fmt.Sprintf("a%d", i%50),
				CreatedAt:      baseTime + int64(i)*1000,
			},
		}
		f.points = append(f.points, p)
		f.byID[p.ID] = p
	}
	return f
}

func (f *fixture) randomVector() []float32 {
	v := make([]float32, contractDim)
	for i := range v {
		v[i] = float32(f.rng.NormFloat64())
	}
	return v
}

func (f *fixture) load(t *testing.T, idx vector.Index) {
	t.Helper()
	if err := idx.Upsert(context.Background(), f.points...); err != nil {
		t.Fatalf("Upsert: %v", err)
	}
}

func matches(p vector.Point, flt vector.Filter) bool {
	pl := p.Payload
	eq := func(want, have string) bool { return want == "" || want == have }
	return pl.WorkspaceID == flt.WorkspaceID && eq(flt.OrganizationID, pl.OrganizationID) &&
		eq(flt.DocumentID, pl.DocumentID) && eq(flt.JudgeType, pl.JudgeType) &&
		eq(flt.ContentType, pl.ContentType) && eq(flt.ReviewerID, pl.ReviewerID) &&
		eq(flt.AnnotationID, pl.AnnotationID) &&
		(len(flt.Decisions) == 0 || slices.Contains(flt.Decisions, pl.Decision)) &&
		!slices.Contains(flt.ExcludeDocumentIDs, pl.DocumentID) &&
		(flt.CreatedFrom == 0 || pl.CreatedAt >= flt.CreatedFrom) &&
		(flt.CreatedTo == 0 || pl.CreatedAt <= flt.CreatedTo)
}

func cosine(a, b []float32) float64 {
	var ab, aa, bb float64
	for i := range a {
		ab += float64(a[i]) * float64(b[i])
		aa += float64(a[i]) * float64(a[i])
		bb += float64(b[i]) * float64(b[i])
	}
	if aa == 0 || bb == 0 {
		return 0
	}
	return ab / math.Sqrt(aa*bb)
}

// expect is the reference answer: matching points by descending cosine.
func (f *fixture) expect(q []float32, flt vector.Filter, limit int) []string {
	type cand struct {
		id    string
		score float64
	}
	var cs []cand
	for _, p := range f.byID {
		if matches(p, flt) {
			cs = append(cs, cand{p.ID, cosine(q, p.Vector)})
		}
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].score > cs[j].score })
	var ids []string
	for i := 0; i < len(cs) && i < limit; i++ {
		ids = append(ids, cs[i].id)
	}
	return ids
}

func (f *fixture) count(flt vector.Filter) int {
	n := 0
	for _, p := range f.byID {
		if matches(p, flt) {
			n++
		}
	}
	return n
}

// check compares Search and Count with the reference for one filter.
// sameRanking: the same number of hits, each ranked where the exact
// ranking has a point of the same cosine (to 2e-3: the embedded index
// keeps vectors in half precision, so near-ties may swap).
func (f *fixture) sameRanking(q []float32, got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if math.Abs(cosine(q, f.byID[got[i]].Vector)-cosine(q, f.byID[want[i]].Vector)) > 2e-3 {
			return false
		}
	}
	return true
}

func (f *fixture) check(t *testing.T, idx vector.Index, q []float32, flt vector.Filter, limit int) {
	t.Helper()
	ctx := context.Background()
	hits, err := idx.Search(ctx, q, flt, limit)
	if err != nil {
		t.Fatalf("Search(%+v): %v", flt, err)
	}
	want := f.expect(q, flt, limit)
	got := make([]string, len(hits))
	for i, h := range hits {
		got[i] = h.ID
		p, ok := f.byID[h.ID]
		if !ok || !matches(p, flt) {
			t.Errorf("Search(%+v) returned %s which does not match", flt, h.ID)
			continue
		}
		if h.Payload != p.Payload {
			t.Errorf("hit %s payload %+v, want %+v", h.ID, h.Payload, p.Payload)
		}
		if d := math.Abs(float64(h.Score) - cosine(q, p.Vector)); d > 1e-3 {
			t.Errorf("hit %s score %v, want cosine %v", h.ID, h.Score, cosine(q, p.Vector))
		}
	}
	if !f.sameRanking(q, got, want) {
		t.Errorf("Search(%+v, limit %d)\n got %v\nwant %v", flt, limit, got, want)
	}
	n, err := idx.Count(ctx, flt)
	if err != nil {
		t.Fatalf("Count(%+v): %v", flt, err)
	}
	if wantN := f.count(flt); n != wantN {
		t.Errorf("Count(%+v) = %d, want %d", flt, n, wantN)
	}
}
