package main

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/opencollab/backend/svc-memory/internal/vector"
)

// dataset generates synthetic judgments: vectors drawn from Gaussian
// clusters, so nearest neighbours are not trivial but have structure like
// real embeddings (a cluster centre plus variation in a low-dimensional
// subspace plus a little isotropic noise). With hard set the variation is
// isotropic in all dimensions, the worst case for any ANN index.
type dataset struct {
	dim      int
	centres  [][]float32
	basis    [][]float32 // subspace directions, rank x dim
	hard     bool
	rng      *rand.Rand
	orgs     int
	contents []string
}

const (
	subspaceRank  = 32
	subspaceScale = 1.0
	noiseScale    = 0.25
	hardNoise     = 0.8
)

func newDataset(dim, clusters, orgs int, hard bool, seed uint64) *dataset {
	rng := rand.New(rand.NewPCG(seed, seed*31+7))
	gauss := func(n int, scale float64) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(rng.NormFloat64() * scale)
		}
		return v
	}
	d := &dataset{dim: dim, hard: hard, rng: rng, orgs: orgs,
		contents: []string{"text", "image", "code", "table"}}
	for range clusters {
		d.centres = append(d.centres, gauss(dim, 1))
	}
	for range subspaceRank {
		d.basis = append(d.basis, gauss(dim, subspaceScale/math.Sqrt(subspaceRank)))
	}
	return d
}

func (d *dataset) vector() []float32 {
	c := d.centres[d.rng.IntN(len(d.centres))]
	v := make([]float32, d.dim)
	copy(v, c)
	if d.hard {
		for j := range v {
			v[j] += float32(d.rng.NormFloat64() * hardNoise)
		}
		return v
	}
	for _, b := range d.basis {
		z := float32(d.rng.NormFloat64())
		for j := range v {
			v[j] += z * b[j]
		}
	}
	for j := range v {
		v[j] += float32(d.rng.NormFloat64() * noiseScale)
	}
	return v
}

// point i of the dataset: ~100 organizations, 4 content types, one
// workspace (the worst case: the whole index is one candidate set).
func (d *dataset) point(i int) vector.Point {
	return vector.Point{
		ID:     fmt.Sprintf("judgment-%08d", i),
		Vector: d.vector(),
		Payload: vector.Payload{
			WorkspaceID:    "ws-bench",
			OrganizationID: fmt.Sprintf("org-%03d", i%d.orgs),
			DocumentID:     fmt.Sprintf("doc-%06d", i/20),
			Decision:       []string{"approved", "rejected", "comment", "resolve"}[i%4],
			JudgeType:      "user",
			ContentType:    d.contents[(i/7)%len(d.contents)],
			ReviewerID:     fmt.Sprintf("user-%04d", i%1000),
			CreatedAt:      1_700_000_000_000 + int64(i)*1000,
		},
	}
}
