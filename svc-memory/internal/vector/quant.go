package vector

import (
	"math"
	"slices"
)

// The graph works on int8 copies of the vectors: a quarter of the memory
// traffic and, with AVX-512 VNNI, a quarter of the instructions of the
// float32 dot product. Each vector has its own scale (max |x| / 127), so
// dot(a, b) ≈ scaleA * scaleB * dotI8(a, b). Graph candidates are re-scored
// in float32 before results are returned, so the quantisation only affects
// which nodes the walk visits, not the reported scores.

// quantStride pads quantised vectors to a multiple of 64 bytes (one
// AVX-512 register); the padding is zero and adds nothing to dot products.
func quantStride(dim int) int { return (dim + 63) &^ 63 }

// quantize writes the int8 codes of v into out (len quantStride) and
// returns the scale and the sum of the codes.
func quantize(v []float32, out []int8) (scale float32, sum int32) {
	var maxAbs float32
	for _, x := range v {
		// |x| by clearing the sign bit; the branch is almost never taken.
		if a := math.Float32frombits(math.Float32bits(x) &^ 0x80000000); a > maxAbs {
			maxAbs = a
		}
	}
	clear(out)
	if maxAbs == 0 {
		return 0, 0
	}
	inv := 127 / maxAbs
	out = out[:len(v)]
	for i, x := range v {
		// Round half away from zero without a branch (signs are random,
		// so a branch mispredicts half the time): add 0.5 carrying x's
		// sign, then truncate. |x*inv| <= 127, so the code fits.
		y := x * inv
		half := math.Float32frombits(0x3f000000 | math.Float32bits(y)&0x80000000)
		c := int8(y + half)
		out[i] = c
		sum += int32(c)
	}
	return maxAbs / 127, sum
}

// dotI8 is the exact integer dot product of two code vectors of equal,
// padded length; sumB is the code sum of b (used by the VNNI kernel).
func dotI8(a, b []int8, sumB int32) int32 {
	if len(a) == 0 {
		return 0
	}
	_ = b[len(a)-1]
	return dotI8Impl(a, b, sumB)
}

func dotI8Generic(a, b []int8) int32 {
	var s0, s1 int32
	b = b[:len(a)]
	i := 0
	for ; i+2 <= len(a); i += 2 {
		s0 += int32(a[i]) * int32(b[i])
		s1 += int32(a[i+1]) * int32(b[i+1])
	}
	for ; i < len(a); i++ {
		s0 += int32(a[i]) * int32(b[i])
	}
	return s0 + s1
}

// probe is a quantised query: a node's own codes while inserting it, or an
// external query's codes while searching.
type probe struct {
	codes []int8
	scale float32
}

func (s *store) probeOf(n uint32) probe { return probe{codes: s.qvec(n), scale: s.qscale[n]} }

// probeFor quantises an external query into sc's buffer.
func (s *store) probeFor(q []float32, sc *searchCtx) probe {
	if len(sc.qbuf) != s.qstride {
		sc.qbuf = make([]int8, s.qstride)
	}
	scale, _ := quantize(q, sc.qbuf)
	return probe{codes: sc.qbuf, scale: scale}
}

// distMany returns the approximate -cosine between p and every node in ids
// (valid until sc is reused), in one batched kernel call that prefetches
// the next vector while scoring the current one.
func (s *store) distMany(p probe, ids []uint32, sc *searchCtx) []float32 {
	if len(ids) == 0 {
		return nil
	}
	ptrs, sums := sc.ptrs[:0], sc.sums[:0]
	for _, x := range ids {
		ptrs = append(ptrs, &s.qchunks[x>>chunkShift][int(x&chunkMask)*s.qstride])
		sums = append(sums, s.qsum[x])
	}
	raw := slices.Grow(sc.raw[:0], len(ids))[:len(ids)]
	dotsI8Impl(p.codes, ptrs, sums, raw)
	clear(ptrs) // do not pin vector chunks from the pool
	out := slices.Grow(sc.dists[:0], len(ids))[:len(ids)]
	for i, x := range ids {
		out[i] = -p.scale * s.qscale[x] * float32(raw[i])
	}
	sc.ptrs, sc.sums, sc.raw, sc.dists = ptrs, sums, raw, out
	return out
}
