package vector

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

var (
	useAVX2   = cpu.X86.HasAVX2 && cpu.X86.HasFMA
	useVNNI   = cpu.X86.HasAVX512F && cpu.X86.HasAVX512VNNI
	useAVX512 = cpu.X86.HasAVX512F
	// F16C comes with every AVX2 CPU in practice; x/sys/cpu does not
	// report it, so the half kernels of AVX2 machines rely on AVX2+FMA.
)

// Kernels in dot_amd64.s. Lengths: dotAVX2 any n; dotI8VNNI a multiple of
// 64; dotI8AVX2 a multiple of 32 (quantised vectors are padded to 64).
//
//go:noescape
func dotAVX2(a, b *float32, n int) float32

//go:noescape
func dotI8VNNI(a, b *int8, n int) int32

//go:noescape
func dotI8AVX2(a, b *int8, n int) int32

//go:noescape
func dotHalfAVX512(q *float32, v *uint16, n int) float32

//go:noescape
func dotHalfAVX2(q *float32, v *uint16, n int) float32

//go:noescape
func dotHalvesAVX512(a, b *uint16, n int) float32

// dotHalvesImpl is the inner product of two half vectors.
func dotHalvesImpl(a, b []uint16) float32 {
	var s float32
	n := 0
	if useAVX512 {
		n = len(a) &^ 31
		if n > 0 {
			s = dotHalvesAVX512(&a[0], &b[0], n)
		}
	}
	if n < len(a) {
		s += dotHalvesGeneric(a[n:], b[n:len(a)])
	}
	return s
}

// dotHalfImpl runs the widest kernel over the leading multiple of 16 (or
// 8) components and finishes the tail in Go.
func dotHalfImpl(q []float32, v []uint16) float32 {
	var s float32
	n := 0
	switch {
	case useAVX512:
		n = len(q) &^ 15
		if n > 0 {
			s = dotHalfAVX512(&q[0], &v[0], n)
		}
	case useAVX2:
		n = len(q) &^ 7
		if n > 0 {
			s = dotHalfAVX2(&q[0], &v[0], n)
		}
	}
	if n < len(q) {
		s += dotHalfGeneric(q[n:], v[n:len(q)])
	}
	return s
}

//go:noescape
func dotsI8VNNI(q *int8, vecs **int8, n int, stride int, out *int32)

// dotsI8Impl sets out[i] = dotI8(q, vecs[i]) (sums[i] is the code sum of
// vecs[i]); all vectors have len(q) codes.
func dotsI8Impl(q []int8, vecs []*int8, sums []int32, out []int32) {
	if useVNNI {
		dotsI8VNNI(&q[0], &vecs[0], len(vecs), len(q), &out[0])
		for i := range out {
			out[i] -= 128 * sums[i]
		}
		return
	}
	for i, v := range vecs {
		b := unsafe.Slice(v, len(q))
		if useAVX2 {
			out[i] = dotI8AVX2(&q[0], &b[0], len(q))
		} else {
			out[i] = dotI8Generic(q, b)
		}
	}
}

func dotImpl(a, b []float32) float32 {
	if useAVX2 {
		return dotAVX2(&a[0], &b[0], len(a))
	}
	return dotGeneric(a, b)
}

func dotI8Impl(a, b []int8, sumB int32) int32 {
	switch {
	case useVNNI:
		return dotI8VNNI(&a[0], &b[0], len(a)) - 128*sumB
	case useAVX2:
		return dotI8AVX2(&a[0], &b[0], len(a))
	}
	return dotI8Generic(a, b)
}
