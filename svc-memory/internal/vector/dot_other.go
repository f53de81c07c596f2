//go:build !amd64

package vector

import "unsafe"

func dotImpl(a, b []float32) float32 { return dotGeneric(a, b) }

func dotI8Impl(a, b []int8, _ int32) int32 { return dotI8Generic(a, b) }

func dotsI8Impl(q []int8, vecs []*int8, _ []int32, out []int32) {
	for i, v := range vecs {
		out[i] = dotI8Generic(q, unsafe.Slice(v, len(q)))
	}
}

func dotHalfImpl(q []float32, v []uint16) float32 { return dotHalfGeneric(q, v) }

func dotHalvesImpl(a, b []uint16) float32 { return dotHalvesGeneric(a, b) }
