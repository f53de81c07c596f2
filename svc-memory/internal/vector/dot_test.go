package vector

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestDotMatchesReference(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 3, 7, 8, 9, 31, 32, 33, 64, 100, 255, 256, 257, 1536} {
		a, b := make([]float32, n), make([]float32, n)
		var want float64
		for i := range a {
			a[i], b[i] = rng.Float32()*2-1, rng.Float32()*2-1
			want += float64(a[i]) * float64(b[i])
		}
		for name, f := range map[string]func(a, b []float32) float32{"dot": dot, "generic": dotGeneric} {
			if got := f(a, b); math.Abs(float64(got)-want) > 1e-4*math.Max(1, math.Abs(want)) {
				t.Errorf("%s n=%d: got %v want %v", name, n, got, want)
			}
		}
	}
	if dot(nil, nil) != 0 {
		t.Error("empty dot should be 0")
	}
}

func BenchmarkDot256(b *testing.B) {
	x, y := make([]float32, 256), make([]float32, 256)
	for i := range x {
		x[i], y[i] = float32(i), float32(256-i)
	}
	var s float32
	b.Run("asm", func(b *testing.B) {
		for b.Loop() {
			s += dot(x, y)
		}
	})
	b.Run("generic", func(b *testing.B) {
		for b.Loop() {
			s += dotGeneric(x, y)
		}
	})
	_ = s
}

func TestDotI8KernelsAgree(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{64, 128, 192, 256, 320, 1536} {
		a, b := make([]int8, n), make([]int8, n)
		var sumB int32
		for i := range a {
			a[i], b[i] = int8(rng.IntN(256)-128), int8(rng.IntN(256)-128)
			sumB += int32(b[i])
		}
		want := dotI8Generic(a, b)
		if got := dotI8(a, b, sumB); got != want {
			t.Errorf("n=%d: dotI8 = %d, want %d", n, got, want)
		}
	}
}

func TestQuantizeApproximatesDot(t *testing.T) {
	t.Parallel()
	vecs := clustered(50, 256, 5, 9)
	stride := quantStride(256)
	qa, qb := make([]int8, stride), make([]int8, stride)
	for i := 1; i < len(vecs); i++ {
		sa, _ := quantize(vecs[i-1], qa)
		sb, sumB := quantize(vecs[i], qb)
		approx := sa * sb * float32(dotI8(qa, qb, sumB))
		if exact := dot(vecs[i-1], vecs[i]); math.Abs(float64(approx-exact)) > 0.01 {
			t.Errorf("pair %d: quantised %v, exact %v", i, approx, exact)
		}
	}
}

func BenchmarkDotI8(b *testing.B) {
	x, y := make([]int8, 256), make([]int8, 256)
	for i := range x {
		x[i], y[i] = int8(i), int8(-i)
	}
	var s int32
	for b.Loop() {
		s += dotI8(x, y, 0)
	}
	_ = s
}

func TestDotsI8BatchMatchesSingle(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(8, 9))
	for _, stride := range []int{64, 256, 320} {
		for _, n := range []int{1, 2, 3, 4, 5, 9, 33} {
			q := make([]int8, stride)
			for i := range q {
				q[i] = int8(rng.IntN(256) - 128)
			}
			vecs := make([][]int8, n)
			ptrs := make([]*int8, n)
			sums := make([]int32, n)
			for j := range vecs {
				vecs[j] = make([]int8, stride)
				for i := range vecs[j] {
					vecs[j][i] = int8(rng.IntN(256) - 128)
					sums[j] += int32(vecs[j][i])
				}
				ptrs[j] = &vecs[j][0]
			}
			out := make([]int32, n)
			dotsI8Impl(q, ptrs, sums, out)
			for j := range vecs {
				if want := dotI8Generic(q, vecs[j]); out[j] != want {
					t.Errorf("stride %d n %d: vector %d = %d, want %d", stride, n, j, out[j], want)
				}
			}
		}
	}
}
