package yjs

import (
	"slices"

	"github.com/opencollab/backend/svc-content/internal/yjs/lib0"
)

// Tx is a transaction: every change to a Doc happens in one. Local edits
// get a Tx from Doc.Transact; it is valid only inside that call.
type Tx struct {
	doc       *Doc
	local     bool
	deleteSet deleteSet
	// dsOrder lists the clients of deleteSet in the order they got their
	// first delete: Yjs iterates the delete set in that order, and the
	// formatting cleanup depends on it.
	dsOrder []uint64
	// before holds each client's state when the transaction started, in
	// the order of the store's client list (clients added since start at 0).
	before []uint64
	// changed holds the types whose content changed and existed before the
	// transaction (Yjs transaction.changed, without the keys).
	changed map[*branch]struct{}
	// mergeStructs are items split in this transaction, to merge again.
	mergeStructs          []*Item
	needFormattingCleanup bool
	// scratch sets reused by resolveConflicts.
	conflicting, beforeOrigin map[*Item]struct{}
}

// newTx starts a transaction. Transactions are recycled (see release): a
// Tx is valid only until its cleanup.
func (d *Doc) newTx(local bool) *Tx {
	var tx *Tx
	if n := len(d.spareTx); n > 0 {
		tx = d.spareTx[n-1]
		d.spareTx = d.spareTx[:n-1]
	} else {
		tx = &Tx{
			doc:       d,
			deleteSet: deleteSet{},
			changed:   map[*branch]struct{}{},
		}
	}
	tx.local = local
	for _, c := range d.store.list {
		tx.before = append(tx.before, c.state())
	}
	return tx
}

// release makes tx available for the next transaction.
func (d *Doc) release(tx *Tx) {
	clear(tx.deleteSet)
	tx.dsOrder = tx.dsOrder[:0]
	tx.before = tx.before[:0]
	clear(tx.changed)
	clear(tx.mergeStructs)
	tx.mergeStructs = tx.mergeStructs[:0]
	tx.needFormattingCleanup = false
	d.spareTx = append(d.spareTx, tx)
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

// addDelete records a deletion in the transaction's delete set.
func (tx *Tx) addDelete(client, clock, length uint64) {
	if _, ok := tx.deleteSet[client]; !ok {
		tx.dsOrder = append(tx.dsOrder, client)
	}
	tx.deleteSet.add(client, clock, length)
}

// beforeState is the client's state when the transaction started.
func (tx *Tx) beforeState(client uint64) uint64 {
	if c := tx.doc.store.clients[client]; c != nil && c.index < len(tx.before) {
		return tx.before[c.index]
	}
	return 0
}

// eachChanged calls f for every client whose state the transaction moved
// on, in the store's order (Yjs iterates afterState in that order).
func (tx *Tx) eachChanged(f func(c *clientStructs, before uint64)) {
	for _, c := range tx.doc.store.list {
		before := uint64(0)
		if c.index < len(tx.before) {
			before = tx.before[c.index]
		}
		if c.state() != before {
			f(c, before)
		}
	}
}

// stateChanged reports whether the transaction added structs.
func (tx *Tx) stateChanged() bool {
	changed := false
	tx.eachChanged(func(*clientStructs, uint64) { changed = true })
	return changed
}

// addChangedType is addChangedTypeToTransaction: only types that existed
// before the transaction and are not deleted count as changed.
func (tx *Tx) addChangedType(t *branch) {
	it := t.item
	if it == nil || (it.id.Clock < tx.beforeState(it.id.Client) && !it.deleted()) {
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
func (tx *Tx) cleanup(encode bool) []byte {
	d := tx.doc
	store := d.store
	tx.deleteSet.sortAndMerge()
	tx.observe()
	if tx.needFormattingCleanup {
		d.cleanupFormattingAfter(tx)
	}
	if d.gc {
		tx.gcDeleteSet()
	}
	tx.mergeDeleteSet()
	tx.eachChanged(func(c *clientStructs, before uint64) {
		first := max(findIndex(c.structs, before), 1)
		for i := len(c.structs) - 1; i >= first; {
			i -= 1 + store.mergeWithLefts(c.client, i)
		}
	})
	for i := len(tx.mergeStructs) - 1; i >= 0; i-- {
		id := tx.mergeStructs[i].id
		structs := store.structsOf(id.Client)
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
	if !tx.local && store.state(d.clientID) != tx.beforeState(d.clientID) {
		// Another peer writes with this client id: pick a new one, as Yjs.
		d.clientID = newClientID()
	}
	if !encode {
		return nil
	}
	return tx.encodeUpdate()
}

// encodeUpdate is writeUpdateMessageFromTransaction: nil when the
// transaction changed nothing.
func (tx *Tx) encodeUpdate() []byte {
	if len(tx.deleteSet) == 0 && !tx.stateChanged() {
		return nil
	}
	// Sized for a typical edit (a few structs): grown from empty, the
	// buffer was reallocated 3-4 times for every update a document emits.
	e := &tx.doc.encoder
	*e = encoderV1{e: lib0.Encoder{Buf: make([]byte, 0, txUpdateBuf)}}
	writeClientsStructs(e, tx.doc.store, tx.beforeState)
	writeDeleteSet(e, tx.deleteSet)
	update := e.toBytes()
	e.e.Buf = nil // the update is the caller's; the document keeps none
	return update
}

// txUpdateBuf is the initial buffer of a transaction's update.
const txUpdateBuf = 64

// gcDeleteSet is tryGcDeleteSet: deleted items lose their content.
func (tx *Tx) gcDeleteSet() {
	store := tx.doc.store
	for _, client := range tx.dsOrder {
		dels := tx.deleteSet[client]
		for di := len(dels) - 1; di >= 0; di-- {
			del := dels[di]
			end := del.clock + del.length
			structs := store.structsOf(client)
			for si := findIndex(structs, del.clock); si >= 0 && si < len(structs); si++ {
				it := structs[si]
				if it.id.Clock >= end {
					break
				}
				if !it.isGC() && it.deleted() && !it.keep() {
					it.gc(store, false)
				}
				structs = store.structsOf(client)
			}
		}
	}
}

// mergeDeleteSet is tryMergeDeleteSet: deleted neighbours merge, from the
// right.
func (tx *Tx) mergeDeleteSet() {
	store := tx.doc.store
	for _, client := range tx.dsOrder {
		dels := tx.deleteSet[client]
		for di := len(dels) - 1; di >= 0; di-- {
			del := dels[di]
			structs := store.structsOf(client)
			idx := findIndex(structs, del.clock+del.length-1)
			if idx < 0 {
				continue
			}
			for si := min(len(structs)-1, 1+idx); si > 0 && structs[si].id.Clock >= del.clock; {
				si -= 1 + store.mergeWithLefts(client, si)
				structs = store.structsOf(client)
			}
		}
	}
}

// mergeWithLefts is tryToMergeWithLefts: the struct at pos merges into its
// left neighbours while they allow it; it returns how many merged.
func (s *structStore) mergeWithLefts(client uint64, pos int) int {
	structs := s.structsOf(client)
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
		s.setStructs(client, slices.Delete(structs, pos+1-merged, pos+1))
	}
	return merged
}
