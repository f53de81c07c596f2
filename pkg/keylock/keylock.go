// Package keylock serialises writers of one key inside a process with a
// fixed set of striped mutexes.
//
// Services need it on the embedded store: MongoDB runs a conditional write
// (a replace filtered on the version read, an $inc) atomically, but FerretDB
// v1 runs it as a read followed by a write by _id, so two writers can both
// match the same version. FerretDB only ever serves one process, where these
// locks give the guarantee MongoDB gives across processes.
package keylock

import (
	"hash/fnv"
	"sync"
)

// stripes is how many mutexes a Stripes holds; keys share them by hash.
const stripes = 256

// Stripes is a set of striped mutexes; the zero value is ready to use.
type Stripes struct {
	m [stripes]sync.Mutex
}

// Lock takes the stripe of key and returns its unlock.
func (s *Stripes) Lock(key string) (unlock func()) {
	m := &s.m[stripe(key)]
	m.Lock()
	return m.Unlock
}

// LockAll takes the stripes of every key in stripe order, so two callers
// holding several never wait on each other in a cycle (Lock holds one
// stripe at a time), and returns the unlock of them all.
func (s *Stripes) LockAll(keys []string) (unlock func()) {
	var wanted [stripes]bool
	for _, k := range keys {
		wanted[stripe(k)] = true
	}
	var taken []int
	for i, w := range wanted {
		if w {
			s.m[i].Lock()
			taken = append(taken, i)
		}
	}
	return func() {
		for _, i := range taken {
			s.m[i].Unlock()
		}
	}
}

func stripe(key string) int {
	h := fnv.New32a()
	h.Write([]byte(key))
	return int(h.Sum32() % stripes)
}
