package yjs

import (
	"slices"
)

// Tx is a transaction: every change to a Doc happens in one. Local edits
// get a Tx from Doc.Transact; it is valid only inside that call.
type Tx struct {
	doc         *Doc
	local       bool
	deleteSet   deleteSet
	beforeState map[uint64]uint64
	afterState  map[uint64]uint64
	// changed holds the types whose content changed and existed before the
	// transaction (Yjs transaction.changed, without the keys).
	changed map[*branch]struct{}
	// mergeStructs are items split in this transaction, to merge again.
	mergeStructs          []*Item
	needFormattingCleanup bool
	// scratch sets reused by resolveConflicts.
	conflicting, beforeOrigin map[*Item]struct{}
}

func newTx(d *Doc, local bool) *Tx {
	return &Tx{
		doc:         d,
		local:       local,
		deleteSet:   deleteSet{},
		beforeState: d.store.stateVector(),
		changed:     map[*branch]struct{}{},
	}
}

func (tx *Tx) scratchSets() (conflicting, beforeOrigin map[*Item]struct{}) {
	if tx.conflicting == nil {
		tx.conflicting, tx.beforeOrigin = map[*Item]struct{}{}, map[*Item]struct{}{}
	}
	clear(tx.conflicting)
	clear(tx.beforeOrigin)
	return tx.conflicting, tx.beforeOrigin
}

// nextID is the ID of the next local item.
func (tx *Tx) nextID() ID {
	c := tx.doc.clientID
	return ID{Client: c, Clock: tx.doc.store.state(c)}
}

// addChangedType is addChangedTypeToTransaction: only types that existed
// before the transaction and are not deleted count as changed.
func (tx *Tx) addChangedType(t *branch, _ bool) {
	it := t.item
	if it == nil || (it.id.Clock < tx.beforeState[it.id.Client] && !it.deleted()) {
		tx.changed[t] = struct{}{}
	}
}

// observe is the observer phase of a transaction's cleanup: what Yjs does
// in _callObserver besides calling observers.
func (tx *Tx) observe() {
	for t := range tx.changed {
		if t.item != nil && t.item.deleted() {
			continue
		}
		if !tx.local && t.markers != nil {
			t.markers.reset()
		}
		if !tx.local && t.hasFormatting && (t.ref == refText || t.ref == refXMLText) {
			tx.needFormattingCleanup = true
		}
	}
}

// cleanup is the end of cleanupTransactions for one transaction: garbage
// collect deleted content, merge structs, and encode the update.
func (tx *Tx) cleanup() []byte {
	d := tx.doc
	store := d.store
	tx.deleteSet.sortAndMerge()
	tx.afterState = store.stateVector()
	tx.observe()
	if tx.needFormattingCleanup {
		d.cleanupFormattingAfter(tx)
	}
	if d.gc {
		tx.gcDeleteSet()
	}
	tx.mergeDeleteSet()
	for client, clock := range tx.afterState {
		before := tx.beforeState[client]
		if before == clock {
			continue
		}
		structs := store.clients[client]
		first := max(findIndex(structs, before), 1)
		for i := len(structs) - 1; i >= first; {
			i -= 1 + store.mergeWithLefts(client, i)
			structs = store.clients[client]
		}
	}
	for i := len(tx.mergeStructs) - 1; i >= 0; i-- {
		id := tx.mergeStructs[i].id
		structs := store.clients[id.Client]
		pos := findIndex(structs, id.Clock)
		if pos < 0 {
			continue
		}
		if pos+1 < len(structs) && store.mergeWithLefts(id.Client, pos+1) > 1 {
			continue
		}
		if pos > 0 {
			store.mergeWithLefts(id.Client, pos)
		}
	}
	if !tx.local && tx.afterState[d.clientID] != tx.beforeState[d.clientID] {
		// Another peer writes with this client id: pick a new one, as Yjs.
		d.clientID = newClientID()
	}
	return tx.encodeUpdate()
}

// encodeUpdate is writeUpdateMessageFromTransaction: nil when the
// transaction changed nothing.
func (tx *Tx) encodeUpdate() []byte {
	if len(tx.deleteSet) == 0 && !stateChanged(tx.beforeState, tx.afterState) {
		return nil
	}
	e := &encoderV1{}
	writeClientsStructs(e, tx.doc.store, tx.beforeState)
	writeDeleteSet(e, tx.deleteSet)
	return e.toBytes()
}

func stateChanged(before, after map[uint64]uint64) bool {
	for client, clock := range after {
		if before[client] != clock {
			return true
		}
	}
	return false
}

// gcDeleteSet is tryGcDeleteSet: deleted items lose their content.
func (tx *Tx) gcDeleteSet() {
	store := tx.doc.store
	for client, dels := range tx.deleteSet {
		for di := len(dels) - 1; di >= 0; di-- {
			del := dels[di]
			end := del.clock + del.length
			structs := store.clients[client]
			for si := findIndex(structs, del.clock); si >= 0 && si < len(structs); si++ {
				it := structs[si]
				if it.id.Clock >= end {
					break
				}
				if !it.isGC() && it.deleted() && !it.keep() {
					it.gc(store, false)
				}
				structs = store.clients[client]
			}
		}
	}
}

// mergeDeleteSet is tryMergeDeleteSet: deleted neighbours merge, from the
// right.
func (tx *Tx) mergeDeleteSet() {
	store := tx.doc.store
	for client, dels := range tx.deleteSet {
		for di := len(dels) - 1; di >= 0; di-- {
			del := dels[di]
			structs := store.clients[client]
			idx := findIndex(structs, del.clock+del.length-1)
			if idx < 0 {
				continue
			}
			for si := min(len(structs)-1, 1+idx); si > 0 && structs[si].id.Clock >= del.clock; {
				si -= 1 + store.mergeWithLefts(client, si)
				structs = store.clients[client]
			}
		}
	}
}

// mergeWithLefts is tryToMergeWithLefts: the struct at pos merges into its
// left neighbours while they allow it; it returns how many merged.
func (s *structStore) mergeWithLefts(client uint64, pos int) int {
	structs := s.clients[client]
	i := pos
	for ; i > 0; i-- {
		left, right := structs[i-1], structs[i]
		if left.deleted() != right.deleted() || left.isGC() != right.isGC() || !left.mergeWith(right) {
			break
		}
		if right.hasParentSub() && right.parent != nil && right.parent.entries[right.parentSub] == right {
			right.parent.entries[right.parentSub] = left
		}
	}
	merged := pos - i
	if merged > 0 {
		s.clients[client] = slices.Delete(structs, pos+1-merged, pos+1)
	}
	return merged
}
