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
	benchEpoch    = 1_700_000_000_000
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

// vectors returns n unit vectors back to back (n x dim). The index
// normalises what it stores anyway; normalising here lets the ground truth
// and hnswlib's inner-product space work on the same cosine.
func (d *dataset) vectors(n int) []float32 {
	out := make([]float32, n*d.dim)
	for i := range n {
		d.fill(out[i*d.dim : (i+1)*d.dim])
	}
	return out
}

func (d *dataset) fill(v []float32) {
	copy(v, d.centres[d.rng.IntN(len(d.centres))])
	if d.hard {
		for j := range v {
			v[j] += float32(d.rng.NormFloat64() * hardNoise)
		}
	} else {
		for _, b := range d.basis {
			z := float32(d.rng.NormFloat64())
			for j := range v {
				v[j] += z * b[j]
			}
		}
		for j := range v {
			v[j] += float32(d.rng.NormFloat64() * noiseScale)
		}
	}
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	inv := float32(1 / math.Sqrt(sum))
	for j := range v {
		v[j] *= inv
	}
}

// payload of point i: ~100 organizations, 4 content types, one workspace
// (the worst case: the whole index is one candidate set).
func (d *dataset) payload(i int) vector.Payload {
	return vector.Payload{
		WorkspaceID:    "ws-bench",
		OrganizationID: fmt.Sprintf("org-%03d", i%d.orgs),
		DocumentID:     fmt.Sprintf("doc-%06d", i/20),
		Decision:       []string{"approved", "rejected", "comment", "resolve"}[i%4],
		JudgeType:      "user",
		ContentType:    d.contents[(i/7)%len(d.contents)],
		ReviewerID:     fmt.Sprintf("user-%04d", i%1000),
		CreatedAt:      benchEpoch + int64(i)*1000,
	}
}

func pointID(i int) string { return fmt.Sprintf("judgment-%08d", i) }

// pointIndex inverts pointID (-1 for an ID that is not one).
func pointIndex(id string) int {
	var i int
	if _, err := fmt.Sscanf(id, "judgment-%08d", &i); err != nil {
		return -1
	}
	return i
}
