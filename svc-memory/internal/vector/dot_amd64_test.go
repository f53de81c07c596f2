package vector

import (
	"math/rand/v2"
	"testing"
)

// Each amd64 kernel against the portable one, whichever dotI8 dispatches to.
func TestDotI8AMD64Kernels(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{64, 128, 256, 384} {
		a, b := make([]int8, n), make([]int8, n)
		var sumB int32
		for i := range a {
			a[i], b[i] = int8(rng.IntN(256)-128), int8(rng.IntN(256)-128)
			sumB += int32(b[i])
		}
		want := dotI8Generic(a, b)
		if useAVX2 {
			if got := dotI8AVX2(&a[0], &b[0], n); got != want {
				t.Errorf("AVX2 n=%d: %d, want %d", n, got, want)
			}
		}
		if useVNNI {
			if got := dotI8VNNI(&a[0], &b[0], n) - 128*sumB; got != want {
				t.Errorf("VNNI n=%d: %d, want %d", n, got, want)
			}
		}
	}
}
