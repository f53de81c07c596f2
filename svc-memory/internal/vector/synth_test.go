package vector

import (
	"fmt"
	"math/rand/v2"
)

// clustered returns n unit vectors drawn around `clusters` random centres
// (Gaussian noise), the shape that makes approximate search hard enough
// for recall to mean something.
func clustered(n, dim, clusters int, seed uint64) [][]float32 {
	rng := rand.New(rand.NewPCG(seed, seed^0x5bd1e995))
	centres := make([][]float32, clusters)
	for i := range centres {
		centres[i] = make([]float32, dim)
		for j := range centres[i] {
			centres[i][j] = float32(rng.NormFloat64())
		}
	}
	out := make([][]float32, n)
	for i := range out {
		c := centres[rng.IntN(clusters)]
		v := make([]float32, dim)
		for j := range v {
			v[j] = c[j] + 0.8*float32(rng.NormFloat64())
		}
		out[i] = normalized(v)
	}
	return out
}

func synthPoints(vecs [][]float32, ws string, orgs int) []Point {
	pts := make([]Point, len(vecs))
	for i, v := range vecs {
		pts[i] = Point{ID: fmt.Sprintf("p%d", i), Vector: v, Payload: Payload{
			WorkspaceID:    ws,
			OrganizationID: fmt.Sprintf("org%d", i%orgs),
			ContentType:    []string{"text", "image", "code", "table"}[i%4],
			CreatedAt:      int64(i),
		}}
	}
	return pts
}
