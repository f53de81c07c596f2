package vector

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestHalfRoundTrip(t *testing.T) {
	t.Parallel()
	cases := map[float32]uint16{
		0: 0, 1: 0x3c00, -2: 0xc000, 0.5: 0x3800, 65504: 0x7bff, 1e9: 0x7c00,
		6.103515625e-05:       0x0400, // smallest normal
		5.960464477539063e-08: 1,      // smallest subnormal
		0.1:                   0x2e66,
		0.33333334:            0x3555,
	}
	for f, want := range cases {
		if got := toHalf(f); got != want {
			t.Errorf("toHalf(%v) = %#04x, want %#04x", f, got, want)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		f := float32(rng.NormFloat64() * 0.1)
		back := fromHalf(toHalf(f))
		if err := math.Abs(float64(back - f)); err > math.Abs(float64(f))/2048+6e-8 {
			t.Fatalf("round trip of %v gave %v (error %v)", f, back, err)
		}
	}
	for h := range uint32(0x7c00) { // every finite positive half is exact in float32
		if toHalf(fromHalf(uint16(h))) != uint16(h) {
			t.Fatalf("half %#04x does not round-trip", h)
		}
	}
}

func TestDotHalfMatchesReference(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, dim := range []int{1, 7, 8, 15, 16, 17, 63, 64, 100, 256, 384, 1536} {
		q := make([]float32, dim)
		v := make([]float32, dim)
		for i := range q {
			q[i], v[i] = float32(rng.NormFloat64()), float32(rng.NormFloat64())
		}
		h := make([]uint16, dim)
		encodeHalf(h, v)
		var want float64
		for i := range q {
			want += float64(q[i]) * float64(fromHalf(h[i]))
		}
		hq := make([]uint16, dim)
		encodeHalf(hq, q)
		var wantHH float64
		for i := range q {
			wantHH += float64(fromHalf(hq[i])) * float64(fromHalf(h[i]))
		}
		for name, got := range map[string]float32{"halves": dotHalves(hq, h), "halves generic": dotHalvesGeneric(hq, h)} {
			if math.Abs(float64(got)-wantHH) > 1e-4*math.Sqrt(float64(dim)) {
				t.Errorf("dim %d %s: %v, want %v", dim, name, got, wantHH)
			}
		}
		for name, got := range map[string]float32{"dispatch": dotHalf(q, h), "generic": dotHalfGeneric(q, h)} {
			if math.Abs(float64(got)-want) > 1e-4*math.Sqrt(float64(dim)) {
				t.Errorf("dim %d %s: %v, want %v", dim, name, got, want)
			}
		}
	}
}
