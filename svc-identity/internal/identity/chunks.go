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

// deleteInChunks calls remove with consecutive chunks of ids (inChunks)
// and returns the ids that any call reported found.
func deleteInChunks(ids []string, remove func([]string) ([]string, error)) (map[string]bool, error) {
	found := make(map[string]bool, len(ids))
	err := inChunks(ids, func(chunk []string) error {
		got, err := remove(chunk)
		for _, id := range got {
			found[id] = true
		}
		return err
	})
	return found, err
}
