package identity

// writeChunk is the most items one store write carries: a request's batch
// (up to its limit, e.g. 1,000 users) is written as a few bounded bulk
// writes instead of one store round trip per item, or one unbounded one.
const writeChunk = 250

// inChunks calls write with consecutive slices of items of at most
// writeChunk, in order, stopping at the first error.
func inChunks[T any](items []T, write func([]T) error) error {
	for start := 0; start < len(items); start += writeChunk {
		if err := write(items[start:min(start+writeChunk, len(items))]); err != nil {
			return err
		}
	}
	return nil
}
