package annotations

import (
	"hash/fnv"
	"sync"
)

// keyLocks serialises writers of one key (an annotation, a counter) inside
// this process.
//
// On MongoDB a replace filtered on the version read, and an $inc, are
// atomic, so across processes the version check alone keeps concurrent
// writes safe. FerretDB (the embedded store and the tests) runs a filtered
// update as a read followed by a write by _id, so two writers can both
// match the same version; it only runs in one process, where these locks
// give the same guarantee.
type keyLocks struct {
	stripes [lockStripes]sync.Mutex
}

const lockStripes = 128

// lock takes the stripe of key and returns its unlock.
func (l *keyLocks) lock(key string) func() {
	m := &l.stripes[l.stripe(key)]
	m.Lock()
	return m.Unlock
}

// lockAll takes the stripes of every key, in stripe order (so two callers
// never wait on each other in a cycle; lock holds one stripe at a time),
// and returns their unlock.
func (l *keyLocks) lockAll(keys []string) func() {
	var wanted [lockStripes]bool
	for _, k := range keys {
		wanted[l.stripe(k)] = true
	}
	var taken []int
	for i, w := range wanted {
		if w {
			l.stripes[i].Lock()
			taken = append(taken, i)
		}
	}
	return func() {
		for _, i := range taken {
			l.stripes[i].Unlock()
		}
	}
}

func (l *keyLocks) stripe(key string) int {
	h := fnv.New32a()
	h.Write([]byte(key))
	return int(h.Sum32() % lockStripes)
}
