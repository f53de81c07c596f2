package yjs

import "github.com/opencollab/backend/svc-content/internal/yjs/lib0"

// The editing algorithms of Y.Text (Yjs src/types/YText.js): a position
// walks the items keeping the formatting attributes in effect, formats are
// items of their own (ContentFormat) that start an attribute value, and
// every insert or format writes the items that end its attributes again.

// textPos is ItemTextListPosition.
type textPos struct {
	left, right *Item
	index       int
	attrs       *attrMap
}

// forward moves past pos.right.
func (p *textPos) forward() {
	if p.right == nil {
		return
	}
	if f, ok := p.right.content.(*contentFormat); ok {
		if !p.right.deleted() {
			p.attrs.update(f)
		}
	} else if !p.right.deleted() {
		p.index += int(p.right.length)
	}
	p.left = p.right
	p.right = p.right.right
}

// findNextPosition moves pos count units forward, splitting the item it
// stops in.
func (tx *Tx) findNextPosition(pos *textPos, count int) *textPos {
	for pos.right != nil && count > 0 {
		r := pos.right
		if f, ok := r.content.(*contentFormat); ok {
			if !r.deleted() {
				pos.attrs.update(f)
			}
		} else if !r.deleted() {
			if count < int(r.length) {
				tx.getItemCleanStart(ID{Client: r.id.Client, Clock: r.id.Clock + uint64(count)})
			}
			pos.index += int(r.length)
			count -= int(r.length)
		}
		pos.left = r
		pos.right = r.right
	}
	return pos
}

// findPosition is the position at index, found from a search marker when
// allowed.
func (tx *Tx) findPosition(parent *branch, index int, useMarker bool) *textPos {
	attrs := &attrMap{}
	if useMarker {
		if m := parent.findMarker(index); m != nil {
			return tx.findNextPosition(&textPos{left: m.p.left, right: m.p, index: m.index, attrs: attrs}, index-m.index)
		}
	}
	return tx.findNextPosition(&textPos{right: parent.start, attrs: attrs}, index)
}

// attrOrNull is `attributes[key] ?? null`.
func attrOrNull(m *attrMap, key string) any {
	v, _ := m.get(key)
	if _, undef := v.(lib0.UndefinedValue); undef {
		return nil
	}
	return v
}

// insertFormat writes a format item at pos and moves past it.
func (tx *Tx) insertFormat(parent *branch, pos *textPos, key string, v any) {
	it := newItem(tx.nextID(), pos.left, pos.right, parent, nil, &contentFormat{key: key, value: v})
	it.integrate(tx, 0)
	pos.right = it
	pos.forward()
}

// insertNegatedAttributes ends the attributes an insert or format started,
// unless format items right after already do.
func (tx *Tx) insertNegatedAttributes(parent *branch, pos *textPos, negated *attrMap) {
	for pos.right != nil {
		r := pos.right
		if !r.deleted() {
			f, ok := r.content.(*contentFormat)
			if !ok {
				break
			}
			nv, has := negated.get(f.key)
			if !has {
				nv = lib0.Undefined
			}
			if !equalAttrs(nv, f.value) {
				break
			}
			negated.del(f.key)
		}
		pos.forward()
	}
	for _, f := range negated.fields {
		tx.insertFormat(parent, pos, f.Key, f.Value)
	}
}

// minimizeAttributeChanges moves past deleted items and formats that set
// what attrs wants already.
func minimizeAttributeChanges(pos *textPos, attrs *attrMap) {
	for pos.right != nil {
		r := pos.right
		if !r.deleted() {
			f, ok := r.content.(*contentFormat)
			if !ok || !equalAttrs(attrOrNull(attrs, f.key), f.value) {
				return
			}
		}
		pos.forward()
	}
}

// insertAttributes writes a format item for every attribute that differs
// from the attributes in effect and returns the values to restore after.
func (tx *Tx) insertAttributes(parent *branch, pos *textPos, attrs *attrMap) *attrMap {
	negated := &attrMap{}
	for _, f := range attrs.fields {
		current := attrOrNull(pos.attrs, f.Key)
		if !equalAttrs(current, f.Value) {
			negated.set(f.Key, current)
			tx.insertFormat(parent, pos, f.Key, f.Value)
		}
	}
	return negated
}

// insertText inserts c (string, embed or type content) at pos with attrs.
func (tx *Tx) insertText(parent *branch, pos *textPos, c content, attrs *attrMap) {
	for _, f := range pos.attrs.fields {
		if v, has := attrs.get(f.Key); !has || v == lib0.Undefined {
			attrs.set(f.Key, nil)
		}
	}
	minimizeAttributeChanges(pos, attrs)
	negated := tx.insertAttributes(parent, pos, attrs)
	index := pos.index
	if parent.markers != nil {
		parent.markers.updateMarkerChanges(pos.index, int(c.length()))
	}
	it := newItem(tx.nextID(), pos.left, pos.right, parent, nil, c)
	it.integrate(tx, 0)
	pos.right = it
	pos.index = index
	pos.forward()
	tx.insertNegatedAttributes(parent, pos, negated)
}

// formatText sets attrs on length units from pos.
func (tx *Tx) formatText(parent *branch, pos *textPos, length int, attrs *attrMap) {
	minimizeAttributeChanges(pos, attrs)
	negated := tx.insertAttributes(parent, pos, attrs)
	for pos.right != nil && (length > 0 || (negated.size() > 0 && (pos.right.deleted() || isFormat(pos.right)))) {
		r := pos.right
		if !r.deleted() {
			if f, ok := r.content.(*contentFormat); ok {
				if attr, has := attrs.get(f.key); has {
					if equalAttrs(attr, f.value) {
						negated.del(f.key)
					} else {
						if length == 0 {
							break // no need to extend negated further
						}
						negated.set(f.key, f.value)
					}
					r.delete(tx)
				} else {
					pos.attrs.set(f.key, f.value)
				}
			} else {
				if length < int(r.length) {
					tx.getItemCleanStart(ID{Client: r.id.Client, Clock: r.id.Clock + uint64(length)})
				}
				length -= int(r.length)
			}
		}
		pos.forward()
	}
	if length > 0 {
		// Quill's trailing newline: formatting past the end adds newlines
		nl := make([]byte, length)
		for i := range nl {
			nl[i] = '\n'
		}
		it := newItem(tx.nextID(), pos.left, pos.right, parent, nil, newContentString(nl))
		it.integrate(tx, 0)
		pos.right = it
		pos.forward()
	}
	tx.insertNegatedAttributes(parent, pos, negated)
}

func isFormat(it *Item) bool {
	_, ok := it.content.(*contentFormat)
	return ok
}

// deleteText deletes length units (strings, embeds, types) from pos and
// removes the formats the deletion made redundant.
func (tx *Tx) deleteText(pos *textPos, length int) {
	startLength := length
	startAttrs := pos.attrs.clone()
	start := pos.right
	for length > 0 && pos.right != nil {
		r := pos.right
		if !r.deleted() {
			switch r.content.(type) {
			case *contentType, *contentEmbed, *contentString:
				if length < int(r.length) {
					tx.getItemCleanStart(ID{Client: r.id.Client, Clock: r.id.Clock + uint64(length)})
				}
				length -= int(r.length)
				r.delete(tx)
			}
		}
		pos.forward()
	}
	if start != nil {
		tx.cleanupFormattingGap(start, pos.right, startAttrs, pos.attrs)
	}
	anchor := pos.left
	if anchor == nil {
		anchor = pos.right
	}
	if anchor != nil && anchor.parent != nil && anchor.parent.markers != nil {
		anchor.parent.markers.updateMarkerChanges(pos.index, -startLength+length)
	}
}
