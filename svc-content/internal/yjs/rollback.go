package yjs

// rollback undoes a local transaction whose function failed: the items it
// created are unlinked and dropped, and what it deleted is restored. Items
// it split stay split (the cleanup merges them again), so the document
// reads as before and its state vector is unchanged.
func (tx *Tx) rollback() {
	d := tx.doc
	store := d.store
	own := d.clientID
	before := tx.beforeState[own]
	structs := store.clients[own]
	first := len(structs)
	if before < store.state(own) {
		first = findIndex(structs, before)
	}
	for i := len(structs) - 1; i >= first && i >= 0; i-- {
		structs[i].unlink()
	}
	if first <= 0 {
		delete(store.clients, own)
	} else if first < len(structs) {
		clear(structs[first:])
		store.clients[own] = structs[:first]
	}
	for client, dels := range tx.deleteSet {
		for _, del := range dels {
			tx.undelete(client, del.clock, del.clock+del.length, own, before)
		}
	}
	for t := range tx.changed {
		if t.markers != nil {
			t.markers.reset()
		}
	}
	tx.deleteSet = deleteSet{}
	clear(tx.changed)
}

// unlink takes a new item out of its parent's sequence or map.
func (it *Item) unlink() {
	p := it.parent
	if it.isGC() || p == nil {
		return
	}
	if it.left != nil {
		it.left.right = it.right
	} else if !it.hasParentSub() && p.start == it {
		p.start = it.right
	}
	if it.right != nil {
		it.right.left = it.left
	}
	if it.hasParentSub() && p.entries[it.parentSub] == it {
		if it.left != nil {
			p.entries[it.parentSub] = it.left
		} else {
			delete(p.entries, it.parentSub)
		}
	}
	if it.countable() && !it.deleted() && !it.hasParentSub() {
		p.length -= int(it.length)
	}
	if p.markers != nil {
		p.markers.reset()
	}
}

// undelete restores the items of client in [clock, end) that the
// transaction deleted and did not create.
func (tx *Tx) undelete(client, clock, end, own, ownBefore uint64) {
	structs := tx.doc.store.clients[client]
	for i := findIndex(structs, clock); i >= 0 && i < len(structs); i++ {
		it := structs[i]
		if it.id.Clock >= end || (client == own && it.id.Clock >= ownBefore) {
			return
		}
		if it.isGC() || !it.has(flagDeleted) {
			continue
		}
		it.flags &^= flagDeleted
		if it.countable() && !it.hasParentSub() && it.parent != nil {
			it.parent.length += int(it.length)
		}
	}
}
