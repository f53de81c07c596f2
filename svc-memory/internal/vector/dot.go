package vector

// dot returns the inner product of two equal-length vectors, using AVX2+FMA
// when the CPU has it (see dot_amd64.go); this is the one hot loop of both
// the exact scan and the HNSW graph.
func dot(a, b []float32) float32 {
	if len(a) == 0 {
		return 0
	}
	_ = b[len(a)-1]
	return dotImpl(a, b)
}

// dotGeneric is the portable kernel: four independent accumulators let the
// CPU overlap the multiply-adds.
func dotGeneric(a, b []float32) float32 {
	var s0, s1, s2, s3 float32
	n := len(a)
	b = b[:n]
	i := 0
	for ; i+4 <= n; i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < n; i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// Dot is dot for tools that compute exact references on raw vectors
// (cmd/vectorbench's ground truth).
func Dot(a, b []float32) float32 { return dot(a, b) }
