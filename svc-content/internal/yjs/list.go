package yjs

import (
	"errors"
	"fmt"
)

// ErrIndexOutOfRange is returned for an index or length beyond a sequence.
var ErrIndexOutOfRange = errors.New("yjs: index out of range")

// The sequence and map operations every shared type builds on (Yjs
// AbstractType.js typeList* and typeMap* functions).

// insertAfter is typeListInsertGenericsAfter: values go after ref (nil: at
// the start) as items of the local client; runs of JSON values share one
// ContentAny item.
func (tx *Tx) insertAfter(parent *branch, ref *Item, values []any) error {
	left := ref
	right := parent.start
	if ref != nil {
		right = ref.right
	}
	var pack []any
	add := func(c content) {
		it := newItem(tx.nextID(), left, right, parent, nil, c)
		it.integrate(tx, 0)
		left = it
	}
	flush := func() {
		if len(pack) > 0 {
			add(&contentAny{vals: pack})
			pack = nil
		}
	}
	for _, v := range values {
		c, isJSON, err := tx.contentOf(v)
		if err != nil {
			return err
		}
		if isJSON {
			pack = append(pack, c.(*contentAny).vals[0])
			continue
		}
		flush()
		add(c)
	}
	flush()
	return nil
}

// contentOf turns a value into item content: a shared type not yet in a
// document, a subdocument, bytes, or a JSON value (isJSON: a one-value
// ContentAny).
func (tx *Tx) contentOf(v any) (c content, isJSON bool, err error) {
	if t := branchOf(v); t != nil {
		if t.doc != nil || t.item != nil {
			return nil, false, errors.New("yjs: a shared type can be inserted only once, and not after it is in a document")
		}
		return &contentType{t: t}, false, nil
	}
	switch t := v.(type) {
	case []byte:
		return &contentBinary{b: append([]byte{}, t...)}, false, nil
	case *SubDoc:
		return &contentDoc{guid: t.GUID, opts: t.opts()}, false, nil
	}
	n, err := normalizeValue(v, 0)
	if err != nil {
		return nil, false, err
	}
	return &contentAny{vals: []any{n}}, true, nil
}

// insert is typeListInsertGenerics: values at index.
func (tx *Tx) insert(parent *branch, index int, values []any) error {
	if index < 0 || index > parent.length {
		return fmt.Errorf("%w: insert at %d in a sequence of length %d", ErrIndexOutOfRange, index, parent.length)
	}
	if index == 0 {
		if parent.markers != nil {
			parent.markers.updateMarkerChanges(index, len(values))
		}
		return tx.insertAfter(parent, nil, values)
	}
	start := index
	m := parent.findMarker(index)
	n := parent.start
	if m != nil {
		n = m.p
		index -= m.index
		if index == 0 {
			// step back to the previous undeleted item so that index can be decreased
			n = n.prev()
			if n != nil && n.countable() && !n.deleted() {
				index += int(n.length)
			}
		}
	}
	for ; n != nil; n = n.right {
		if !n.deleted() && n.countable() {
			if index <= int(n.length) {
				if index < int(n.length) {
					tx.getItemCleanStart(ID{Client: n.id.Client, Clock: n.id.Clock + uint64(index)})
				}
				break
			}
			index -= int(n.length)
		}
	}
	if parent.markers != nil {
		parent.markers.updateMarkerChanges(start, len(values))
	}
	return tx.insertAfter(parent, n, values)
}

// push is typeListPushGenerics: values at the end.
func (tx *Tx) push(parent *branch, values []any) error {
	n := parent.start
	if parent.markers != nil {
		best := 0
		for _, m := range parent.markers.list {
			if m.index > best {
				best, n = m.index, m.p
			}
		}
	}
	if n != nil {
		for n.right != nil {
			n = n.right
		}
	}
	return tx.insertAfter(parent, n, values)
}

// deleteRange is typeListDelete: length values from index.
func (tx *Tx) deleteFrom(parent *branch, index, length int) error {
	if length == 0 {
		return nil
	}
	if index < 0 || length < 0 || index+length > parent.length {
		return fmt.Errorf("%w: delete %d at %d in a sequence of length %d", ErrIndexOutOfRange, length, index, parent.length)
	}
	start, startLength := index, length
	m := parent.findMarker(index)
	n := parent.start
	if m != nil {
		n = m.p
		index -= m.index
	}
	for ; n != nil && index > 0; n = n.right {
		if !n.deleted() && n.countable() {
			if index < int(n.length) {
				tx.getItemCleanStart(ID{Client: n.id.Client, Clock: n.id.Clock + uint64(index)})
			}
			index -= int(n.length)
		}
	}
	for length > 0 && n != nil {
		if !n.deleted() {
			if length < int(n.length) {
				tx.getItemCleanStart(ID{Client: n.id.Client, Clock: n.id.Clock + uint64(length)})
			}
			n.delete(tx)
			length -= int(n.length)
		}
		n = n.right
	}
	if parent.markers != nil {
		parent.markers.updateMarkerChanges(start, -startLength+length)
	}
	return nil
}

// get is typeListGet: the value at index.
func (b *branch) get(index int) (any, bool) {
	if index < 0 || index >= b.length {
		return nil, false
	}
	m := b.findMarker(index)
	n := b.start
	if m != nil {
		n = m.p
		index -= m.index
	}
	for ; n != nil; n = n.right {
		if !n.deleted() && n.countable() {
			if index < int(n.length) {
				return contentValues(n.content)[index], true
			}
			index -= int(n.length)
		}
	}
	return nil, false
}

// values is typeListToArray: the undeleted values of the sequence.
func (b *branch) values() []any {
	var out []any
	for n := b.start; n != nil; n = n.right {
		if n.countable() && !n.deleted() {
			out = append(out, contentValues(n.content)...)
		}
	}
	return out
}

// mapSet is typeMapSet: key's new value, after its current one.
func (tx *Tx) mapSet(parent *branch, key string, v any) error {
	var c content
	if t := branchOf(v); t != nil {
		if t.doc != nil || t.item != nil {
			return errors.New("yjs: a shared type can be inserted only once, and not after it is in a document")
		}
		c = &contentType{t: t}
	} else {
		switch t := v.(type) {
		case []byte:
			c = &contentBinary{b: append([]byte{}, t...)}
		case *SubDoc:
			c = &contentDoc{guid: t.GUID, opts: t.opts()}
		default:
			n, err := normalizeValue(v, 0)
			if err != nil {
				return err
			}
			c = &contentAny{vals: []any{n}}
		}
	}
	left := parent.entries[key]
	it := newItem(tx.nextID(), left, nil, parent, &key, c)
	it.integrate(tx, 0)
	return nil
}

// mapDelete is typeMapDelete.
func (tx *Tx) mapDelete(parent *branch, key string) {
	if it := parent.entries[key]; it != nil {
		it.delete(tx)
	}
}

// mapGet is typeMapGet: key's current value.
func (b *branch) mapGet(key string) (any, bool) {
	it := b.entries[key]
	if it == nil || it.deleted() {
		return nil, false
	}
	vals := contentValues(it.content)
	if len(vals) == 0 {
		return nil, false
	}
	return vals[int(it.length)-1], true
}

// setEntry makes it the current item of key.
func (b *branch) setEntry(key string, it *Item) {
	if b.entries == nil {
		b.entries = map[string]*Item{}
	}
	b.entries[key] = it
}
