package yjs

// integrate is Item.integrate: it places the item between left and right,
// resolving conflicts with concurrent inserts by YATA, links it into its
// parent and the store, and deletes it when its parent is deleted or a later
// value of its map key exists. An item without a parent (its parent or a
// neighbour was garbage collected) is kept as a GC struct.
func (it *Item) integrate(tx *Tx, offset uint64) {
	if offset > 0 {
		it.id.Clock += offset
		it.left = tx.getItemCleanEnd(ID{Client: it.id.Client, Clock: it.id.Clock - 1})
		if it.left == nil {
			it.parent = nil
		} else {
			it.origin = it.left.lastID()
			it.flags |= flagHasOrigin
		}
		it.content = it.content.splice(offset)
		it.length -= offset
	}
	if it.parent == nil {
		newGC(it.id, it.length).integrateGC(tx, 0)
		return
	}
	p := it.parent
	if (it.left == nil && (it.right == nil || it.right.left != nil)) || (it.left != nil && it.left.right != it.right) {
		it.left = it.resolveConflicts(tx)
	}
	it.link(tx)
	if it.countable() && !it.hasParentSub() && !it.deleted() {
		p.length += int(it.length)
	}
	tx.doc.store.addStruct(it)
	it.integrateContent(tx)
	tx.addChangedType(p)
	if (p.item != nil && p.item.deleted()) || (it.hasParentSub() && it.right != nil) {
		it.delete(tx)
	}
}

// resolveConflicts walks the items between left and right that were
// inserted concurrently and returns the item to insert after:
// ***{origin}bbbb{this}{c,b}{c,b}{o}***
func (it *Item) resolveConflicts(tx *Tx) *Item {
	left := it.left
	var o *Item
	switch {
	case left != nil:
		o = left.right
	case it.hasParentSub():
		o = it.parent.entries[it.parentSub]
		for o != nil && o.left != nil {
			o = o.left
		}
	default:
		o = it.parent.start
	}
	conflicting, beforeOrigin := tx.scratchSets()
	store := tx.doc.store
	for o != nil && o != it.right {
		beforeOrigin[o] = struct{}{}
		conflicting[o] = struct{}{}
		if sameOrigin(it, o) {
			if o.id.Client < it.id.Client {
				left = o
				clear(conflicting)
			} else if sameRightOrigin(it, o) {
				// it and o insert at the same place: the client id orders
				// them, it goes first.
				break
			}
		} else if oo, ok := o.originID(); ok {
			if originItem := store.find(oo); originItem != nil {
				if _, before := beforeOrigin[originItem]; before {
					if _, c := conflicting[originItem]; !c {
						left = o
						clear(conflicting)
					}
				} else {
					break
				}
			} else {
				break
			}
		} else {
			break
		}
		o = o.right
	}
	return left
}

func sameOrigin(a, b *Item) bool {
	ha, hb := a.has(flagHasOrigin), b.has(flagHasOrigin)
	return ha == hb && (!ha || a.origin == b.origin)
}

func sameRightOrigin(a, b *Item) bool {
	ha, hb := a.has(flagHasRightOrigin), b.has(flagHasRightOrigin)
	return ha == hb && (!ha || a.rightOrigin == b.rightOrigin)
}

// link connects the item to its neighbours and its parent's start or map
// entry; a map value placed after the current one replaces it.
func (it *Item) link(tx *Tx) {
	p := it.parent
	if it.left != nil {
		it.right = it.left.right
		it.left.right = it
	} else {
		var r *Item
		if it.hasParentSub() {
			r = p.entries[it.parentSub]
			for r != nil && r.left != nil {
				r = r.left
			}
		} else {
			r = p.start
			p.start = it
		}
		it.right = r
	}
	if it.right != nil {
		it.right.left = it
	} else if it.hasParentSub() {
		p.setEntry(it.parentSub, it)
		if it.left != nil {
			it.left.delete(tx)
		}
	}
}

// integrateContent is the content's integrate step.
func (it *Item) integrateContent(tx *Tx) {
	switch c := it.content.(type) {
	case *contentDeleted:
		tx.addDelete(it.id.Client, it.id.Clock, c.n)
		it.markDeleted()
	case *contentFormat:
		it.parent.markers = nil // Yjs keeps no search markers for formatted text
		it.parent.hasFormatting = true
	case *contentType:
		c.t.integrate(tx, it)
	}
}

// integrateGC is GC.integrate.
func (it *Item) integrateGC(tx *Tx, offset uint64) {
	if offset > 0 {
		it.id.Clock += offset
		it.length -= offset
	}
	tx.doc.store.addStruct(it)
}

// missing is the first half of Item.getMissing: the client of a struct
// this one depends on that the store does not have yet.
func (tx *Tx) missing(b *block) (uint64, bool) {
	if b.kind != blockItem {
		return 0, false
	}
	store := tx.doc.store
	if b.hasOrigin && b.origin.Client != b.id.Client && b.origin.Clock >= store.state(b.origin.Client) {
		return b.origin.Client, true
	}
	if b.hasRightOrigin && b.rightOrigin.Client != b.id.Client && b.rightOrigin.Clock >= store.state(b.rightOrigin.Client) {
		return b.rightOrigin.Client, true
	}
	if b.parent == parentByID && b.id.Client != b.parentID.Client && b.parentID.Clock >= store.state(b.parentID.Client) {
		return b.parentID.Client, true
	}
	return 0, false
}

// resolve is the second half of Item.getMissing: with every dependency in
// the store it turns b into an item linked to its neighbours and parent
// (parent nil: the item will be kept as a GC struct).
func (tx *Tx) resolve(b *block) *Item {
	if b.kind == blockGC {
		return newGC(b.id, b.length)
	}
	it := &Item{id: b.id, length: b.length, content: b.content, parentSub: b.parentSub}
	if b.content.countable() {
		it.flags |= flagCountable
	}
	if b.hasParentSub {
		it.flags |= flagHasParentSub
	}
	store := tx.doc.store
	if b.hasOrigin {
		it.left = tx.getItemCleanEnd(b.origin)
		if it.left != nil {
			it.origin = it.left.lastID()
			it.flags |= flagHasOrigin
		}
	}
	if b.hasRightOrigin {
		it.right = tx.getItemCleanStart(b.rightOrigin)
		if it.right != nil {
			it.rightOrigin = it.right.id
			it.flags |= flagHasRightOrigin
		}
	}
	switch {
	case (b.hasOrigin && (it.left == nil || it.left.isGC())) || (b.hasRightOrigin && (it.right == nil || it.right.isGC())):
		it.parent = nil
	case b.parent == parentFromOrigin:
		if n := it.left; n != nil {
			it.parent, it.parentSub = n.parent, n.parentSub
			it.setFlag(flagHasParentSub, n.hasParentSub())
		} else if n := it.right; n != nil {
			it.parent, it.parentSub = n.parent, n.parentSub
			it.setFlag(flagHasParentSub, n.hasParentSub())
		}
	case b.parent == parentByName:
		it.parent = tx.doc.root(b.parentName)
	case b.parent == parentByID:
		if pi := store.find(b.parentID); pi != nil && !pi.isGC() {
			if c, ok := pi.content.(*contentType); ok {
				it.parent = c.t
			}
		}
	}
	return it
}
