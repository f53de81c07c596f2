package yjs

// Item flags (Yjs Item.info bits plus which optional fields are set). A GC
// struct is an Item with flagGC: it only covers clocks.
const (
	flagKeep uint16 = 1 << iota
	flagCountable
	flagDeleted
	flagMarker
	flagHasOrigin
	flagHasRightOrigin
	flagHasParentSub
	flagGC
)

// Item is one integrated struct of a document: content placed in a
// sequence (left/right) or under a map key (parentSub) of a shared type.
type Item struct {
	id          ID
	length      uint64
	left, right *Item
	// origin and rightOrigin are the neighbours the item was inserted
	// between (YATA); they decide the order of concurrent inserts.
	origin      ID
	rightOrigin ID
	parent      *branch
	parentSub   string
	content     content
	flags       uint16
}

func (it *Item) has(f uint16) bool  { return it.flags&f != 0 }
func (it *Item) deleted() bool      { return it.flags&(flagDeleted|flagGC) != 0 }
func (it *Item) countable() bool    { return it.flags&flagCountable != 0 }
func (it *Item) keep() bool         { return it.flags&flagKeep != 0 }
func (it *Item) isGC() bool         { return it.flags&flagGC != 0 }
func (it *Item) marker() bool       { return it.flags&flagMarker != 0 }
func (it *Item) hasParentSub() bool { return it.flags&flagHasParentSub != 0 }
func (it *Item) markDeleted()       { it.flags |= flagDeleted }
func (it *Item) setFlag(f uint16, on bool) {
	if on {
		it.flags |= f
	} else {
		it.flags &^= f
	}
}

// originID returns the origin, if any.
func (it *Item) originID() (ID, bool) { return it.origin, it.has(flagHasOrigin) }

// lastID is the ID of the item's last clock.
func (it *Item) lastID() ID { return ID{Client: it.id.Client, Clock: it.id.Clock + it.length - 1} }

// prev is the previous undeleted item.
func (it *Item) prev() *Item {
	n := it.left
	for n != nil && n.deleted() {
		n = n.left
	}
	return n
}

// newGC is a GC struct covering length clocks from id.
func newGC(id ID, length uint64) *Item {
	return &Item{id: id, length: length, flags: flagGC}
}

// newItem creates an item for local insertion between left and right.
func newItem(id ID, left, right *Item, parent *branch, parentSub *string, c content) *Item {
	it := &Item{id: id, left: left, right: right, parent: parent, content: c, length: c.length()}
	if left != nil {
		it.origin = left.lastID()
		it.flags |= flagHasOrigin
	}
	if right != nil {
		it.rightOrigin = right.id
		it.flags |= flagHasRightOrigin
	}
	if parentSub != nil {
		it.parentSub = *parentSub
		it.flags |= flagHasParentSub
	}
	if c.countable() {
		it.flags |= flagCountable
	}
	return it
}

// splitItem is splitItem: it keeps [0, diff) of it and returns the rest as
// a new item linked to its right.
func (tx *Tx) splitItem(it *Item, diff uint64) *Item {
	right := &Item{
		id:          ID{Client: it.id.Client, Clock: it.id.Clock + diff},
		left:        it,
		origin:      ID{Client: it.id.Client, Clock: it.id.Clock + diff - 1},
		right:       it.right,
		rightOrigin: it.rightOrigin,
		parent:      it.parent,
		parentSub:   it.parentSub,
		content:     it.content.splice(diff),
		flags:       flagHasOrigin | it.flags&(flagHasRightOrigin|flagHasParentSub|flagCountable|flagDeleted|flagKeep),
	}
	right.length = it.length - diff
	it.right = right
	if right.right != nil {
		right.right.left = right
	}
	tx.mergeStructs = append(tx.mergeStructs, right)
	if right.hasParentSub() && right.right == nil && right.parent != nil {
		right.parent.setEntry(right.parentSub, right)
	}
	it.length = diff
	return right
}

// mergeWith is Item.mergeWith: it absorbs right when right continues it in
// every respect (same client, next clock, same neighbours and state).
func (it *Item) mergeWith(right *Item) bool {
	if it.isGC() || right.isGC() {
		if it.isGC() && right.isGC() {
			it.length += right.length
			return true
		}
		return false
	}
	if right.origin != it.lastID() || !right.has(flagHasOrigin) ||
		it.right != right ||
		it.has(flagHasRightOrigin) != right.has(flagHasRightOrigin) ||
		(it.has(flagHasRightOrigin) && it.rightOrigin != right.rightOrigin) ||
		it.id.Client != right.id.Client ||
		it.id.Clock+it.length != right.id.Clock ||
		it.deleted() != right.deleted() ||
		it.content.ref() != right.content.ref() ||
		!it.content.mergeWith(right.content) {
		return false
	}
	if it.parent != nil && it.parent.markers != nil {
		it.parent.markers.replaced(right, it)
	}
	if right.keep() {
		it.flags |= flagKeep
	}
	it.right = right.right
	if it.right != nil {
		it.right.left = it
	}
	it.length += right.length
	return true
}

// delete is Item.delete: it marks the item deleted, records it in the
// transaction and deletes what its content owns.
func (it *Item) delete(tx *Tx) {
	if it.deleted() {
		return
	}
	parent := it.parent
	if it.countable() && !it.hasParentSub() {
		parent.length -= int(it.length)
	}
	it.markDeleted()
	tx.addDelete(it.id.Client, it.id.Clock, it.length)
	tx.addChangedType(parent)
	switch c := it.content.(type) {
	case *contentType:
		c.t.deleteChildren(tx)
	case *contentDoc:
		// subdocuments are not loaded: nothing to unload
	}
}

// gc is Item.gc: a deleted item drops its content, or becomes a GC struct
// when its parent is collected too.
func (it *Item) gc(store *structStore, parentGCd bool) {
	if c, ok := it.content.(*contentType); ok {
		c.t.gcChildren(store)
	}
	if parentGCd {
		store.replaceStruct(it, newGC(it.id, it.length))
		return
	}
	// Like Yjs, the countable flag stays: it only counts with !deleted.
	it.content = &contentDeleted{n: it.length}
}

// write is Item.write from offset on.
func (it *Item) write(e updateEncoder, offset uint64) {
	if it.isGC() {
		e.writeInfo(refGC)
		e.writeLen(it.length - offset)
		return
	}
	origin, hasOrigin := it.origin, it.has(flagHasOrigin)
	if offset > 0 {
		origin, hasOrigin = ID{Client: it.id.Client, Clock: it.id.Clock + offset - 1}, true
	}
	hasRight := it.has(flagHasRightOrigin)
	e.writeInfo(itemInfo(it.content.ref(), hasOrigin, hasRight, it.hasParentSub()))
	if hasOrigin {
		e.writeLeftID(origin)
	}
	if hasRight {
		e.writeRightID(it.rightOrigin)
	}
	if !hasOrigin && !hasRight {
		if it.parent.isRoot() {
			e.writeParentInfo(true)
			e.writeString(it.parent.name)
		} else {
			e.writeParentInfo(false)
			e.writeLeftID(it.parent.item.id)
		}
		if it.hasParentSub() {
			e.writeString(it.parentSub)
		}
	}
	it.content.write(e, offset)
}
