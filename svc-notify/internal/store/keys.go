package store

import (
	"encoding/json"
	"hash/fnv"
	"slices"
	"sync"
)

// Why most reads and writes here go by _id: FerretDB v1 (the embedded store
// and the tests) evaluates every filter other than a lone {_id: value} by
// scanning the whole collection, so only _id lookups keep the cost of an
// add or of a user-data page independent of how many notifications exist.
// On MongoDB they are as cheap as anything else.

// docKey is a deterministic _id made of parts: their JSON array, which no
// two different lists of parts share.
func docKey(parts ...string) string {
	b, _ := json.Marshal(parts)
	return string(b)
}

func notificationKey(ws, orgID, id string) string { return docKey(ws, orgID, id) }

// keyLocks serialises writers of one key inside this process. On MongoDB
// the conditional writes (revision checks, $inc) are atomic across
// processes on their own; FerretDB runs a conditional write as a read
// followed by a write, and it only ever serves one process, where these
// locks give the same guarantee.
type keyLocks struct {
	stripes [256]sync.Mutex
}

// lock takes the stripe of key and returns its unlock.
func (l *keyLocks) lock(key string) (unlock func()) {
	m := &l.stripes[l.stripe(key)]
	m.Lock()
	return m.Unlock
}

// stripe is the index of key's stripe.
func (l *keyLocks) stripe(key string) int {
	h := fnv.New32a()
	h.Write([]byte(key))
	return int(h.Sum32() % uint32(len(l.stripes)))
}

// lockAll takes the stripes of every key, in stripe order so that two
// callers holding several never wait on each other in a cycle, and returns
// the unlock of them all.
func (l *keyLocks) lockAll(keys []string) (unlock func()) {
	stripes := make([]int, 0, len(keys))
	for _, key := range keys {
		stripes = append(stripes, l.stripe(key))
	}
	slices.Sort(stripes)
	stripes = slices.Compact(stripes)
	for _, s := range stripes {
		l.stripes[s].Lock()
	}
	return func() {
		for _, s := range stripes {
			l.stripes[s].Unlock()
		}
	}
}
