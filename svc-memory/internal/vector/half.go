package vector

import "math"

// Vectors are stored as IEEE 754 half-precision floats: half the memory
// of float32, and a relative error of at most 2^-11 per component, far
// below what separates neighbours of unit vectors (the dot products of
// stored and query vectors move by ~1e-4). The int8 codes (quant.go) are
// derived from the same vectors.

// toHalf rounds f to the nearest half (ties to even); magnitudes beyond
// the half range become infinities, which unit vectors never reach.
func toHalf(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int32(b>>23&0xff) - 127 + 15
	mant := b & 0x7fffff
	switch {
	case b&0x7fffffff == 0:
		return sign
	case exp >= 0x1f:
		return sign | 0x7c00
	case exp <= 0:
		// Subnormal half: shift the mantissa (with its implicit 1) right.
		if exp < -10 {
			return sign
		}
		m := mant | 0x800000
		shift := uint32(14 - exp)
		half := m >> shift
		rem := m & (1<<shift - 1)
		mid := uint32(1) << (shift - 1)
		if rem > mid || (rem == mid && half&1 == 1) {
			half++
		}
		return sign | uint16(half)
	}
	half := uint32(exp)<<10 | mant>>13
	rem := mant & 0x1fff
	if rem > 0x1000 || (rem == 0x1000 && half&1 == 1) {
		half++ // may carry into the exponent, which is the right rounding
	}
	return sign | uint16(half)
}

// fromHalf widens a half to float32 exactly.
func fromHalf(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h & 0x3ff)
	switch {
	case exp == 0 && mant == 0:
		return math.Float32frombits(sign)
	case exp == 0:
		// Subnormal: normalise.
		e := uint32(127 - 15 + 1)
		for mant&0x400 == 0 {
			mant <<= 1
			e--
		}
		return math.Float32frombits(sign | e<<23 | (mant&0x3ff)<<13)
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
}

// encodeHalf converts src into dst (same length).
func encodeHalf(dst []uint16, src []float32) {
	for i, x := range src {
		dst[i] = toHalf(x)
	}
}

// decodeHalf converts src into dst (same length).
func decodeHalf(dst []float32, src []uint16) {
	for i, h := range src {
		dst[i] = fromHalf(h)
	}
}

// dotHalf is the inner product of a float32 query and a stored half
// vector of the same length.
func dotHalf(q []float32, v []uint16) float32 {
	if len(q) == 0 {
		return 0
	}
	_ = v[len(q)-1]
	return dotHalfImpl(q, v)
}

func dotHalfGeneric(q []float32, v []uint16) float32 {
	var s0, s1 float32
	v = v[:len(q)]
	i := 0
	for ; i+2 <= len(q); i += 2 {
		s0 += q[i] * fromHalf(v[i])
		s1 += q[i+1] * fromHalf(v[i+1])
	}
	for ; i < len(q); i++ {
		s0 += q[i] * fromHalf(v[i])
	}
	return s0 + s1
}

// dotHalves is the inner product of two stored half vectors of the same
// length (graph construction compares stored vectors with each other).
func dotHalves(a, b []uint16) float32 {
	if len(a) == 0 {
		return 0
	}
	_ = b[len(a)-1]
	return dotHalvesImpl(a, b)
}

func dotHalvesGeneric(a, b []uint16) float32 {
	var s float32
	for i := range a {
		s += fromHalf(a[i]) * fromHalf(b[i])
	}
	return s
}
