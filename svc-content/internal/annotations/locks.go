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
	stripes [128]sync.Mutex
}

// lock takes the stripe of key and returns its unlock.
func (l *keyLocks) lock(key string) func() {
	h := fnv.New32a()
	h.Write([]byte(key))
	m := &l.stripes[h.Sum32()%uint32(len(l.stripes))]
	m.Lock()
	return m.Unlock
}
