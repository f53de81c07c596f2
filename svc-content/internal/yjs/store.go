package yjs

import "slices"

// structStore is Yjs's StructStore: per client, its structs (items and GC
// ranges) sorted by clock and covering every clock from 0 on; plus what
// updates delivered that cannot be applied yet.
type structStore struct {
	clients map[uint64][]*Item
	// pendingStructs is an update (v1) of structs waiting for structs of
	// other clients (missing: the lowest missing clock per client).
	pendingStructs []byte
	pendingMissing map[uint64]uint64
	// pendingDs is an update (v1) of deletes of clocks not received yet.
	pendingDs []byte
}

func newStructStore() *structStore {
	return &structStore{clients: map[uint64][]*Item{}}
}

// state is the next clock expected from client.
func (s *structStore) state(client uint64) uint64 {
	structs := s.clients[client]
	if len(structs) == 0 {
		return 0
	}
	last := structs[len(structs)-1]
	return last.id.Clock + last.length
}

// stateVector is getStateVector: every client's next clock.
func (s *structStore) stateVector() map[uint64]uint64 {
	sv := make(map[uint64]uint64, len(s.clients))
	for client := range s.clients {
		sv[client] = s.state(client)
	}
	return sv
}

// addStruct appends a struct that follows the client's last one.
func (s *structStore) addStruct(it *Item) {
	s.clients[it.id.Client] = append(s.clients[it.id.Client], it)
}

// findIndex is findIndexSS: the index of the struct holding clock, by a
// binary search that starts where clocks spread evenly would put it; -1
// when no struct holds it (callers check the state first, as Yjs does).
func findIndex(structs []*Item, clock uint64) int {
	right := len(structs) - 1
	if right < 0 {
		return -1
	}
	left := 0
	mid := structs[right]
	if mid.id.Clock == clock {
		return right
	}
	midIndex := int(float64(clock) / float64(mid.id.Clock+mid.length-1) * float64(right))
	for left <= right {
		if midIndex < left || midIndex > right {
			midIndex = (left + right) / 2
		}
		mid = structs[midIndex]
		if mid.id.Clock <= clock {
			if clock < mid.id.Clock+mid.length {
				return midIndex
			}
			left = midIndex + 1
		} else {
			right = midIndex - 1
		}
		midIndex = (left + right) / 2
	}
	return -1
}

// find returns the struct holding id, or nil.
func (s *structStore) find(id ID) *Item {
	structs := s.clients[id.Client]
	i := findIndex(structs, id.Clock)
	if i < 0 {
		return nil
	}
	return structs[i]
}

// findIndexCleanStart finds the struct holding clock and splits it so that
// a struct starts at clock.
func (tx *Tx) findIndexCleanStart(client uint64, clock uint64) int {
	structs := tx.doc.store.clients[client]
	i := findIndex(structs, clock)
	if i < 0 {
		return -1
	}
	it := structs[i]
	if it.id.Clock < clock && !it.isGC() {
		right := tx.splitItem(it, clock-it.id.Clock)
		tx.doc.store.clients[client] = slices.Insert(structs, i+1, right)
		return i + 1
	}
	return i
}

// getItemCleanStart returns the struct starting at id, splitting the one
// holding it.
func (tx *Tx) getItemCleanStart(id ID) *Item {
	i := tx.findIndexCleanStart(id.Client, id.Clock)
	if i < 0 {
		return nil
	}
	return tx.doc.store.clients[id.Client][i]
}

// getItemCleanEnd returns the struct ending at id, splitting the one
// holding it.
func (tx *Tx) getItemCleanEnd(id ID) *Item {
	structs := tx.doc.store.clients[id.Client]
	i := findIndex(structs, id.Clock)
	if i < 0 {
		return nil
	}
	it := structs[i]
	if id.Clock != it.id.Clock+it.length-1 && !it.isGC() {
		right := tx.splitItem(it, id.Clock-it.id.Clock+1)
		tx.doc.store.clients[id.Client] = slices.Insert(structs, i+1, right)
	}
	return it
}

// replaceStruct puts repl where old is in the store.
func (s *structStore) replaceStruct(old, repl *Item) {
	structs := s.clients[old.id.Client]
	if i := findIndex(structs, old.id.Clock); i >= 0 {
		structs[i] = repl
	}
}

// iterateStructs calls f for every struct in [clockStart, clockStart+n),
// splitting the structs at both ends.
func (tx *Tx) iterateStructs(client uint64, clockStart, n uint64, f func(*Item)) {
	if n == 0 {
		return
	}
	clockEnd := clockStart + n
	i := tx.findIndexCleanStart(client, clockStart)
	if i < 0 {
		return
	}
	for {
		structs := tx.doc.store.clients[client]
		it := structs[i]
		i++
		if clockEnd < it.id.Clock+it.length {
			tx.findIndexCleanStart(client, clockEnd)
		}
		f(it)
		structs = tx.doc.store.clients[client]
		if i >= len(structs) || structs[i].id.Clock >= clockEnd {
			return
		}
	}
}
