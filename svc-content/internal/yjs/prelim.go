package yjs

import "github.com/opencollab/backend/svc-content/internal/yjs/lib0"

// prelimContent is what a shared type made outside a document holds; it
// is written when the type is inserted (Yjs _prelimContent / _pending).
type prelimContent struct {
	values  []any        // Array values, XmlFragment / XmlElement children
	entries []lib0.Field // Map entries, XmlElement attributes
	text    string       // Text / XmlText content
	delta   []Delta      // Text / XmlText formatted content (after text)
}

// integrate is AbstractType._integrate of each kind: the type joins the
// document, and its preliminary content is written in this transaction.
func (b *branch) integrate(tx *Tx, it *Item) {
	b.doc = tx.doc
	b.item = it
	p := b.prelim
	b.prelim = nil
	if p == nil {
		return
	}
	switch b.ref {
	case refArray, refXMLFragment:
		_ = tx.insert(b, 0, p.values)
	case refXMLElement:
		_ = tx.insert(b, 0, p.values)
		for _, f := range p.entries {
			_ = tx.mapSet(b, f.Key, f.Value)
		}
	case refMap, refXMLHook:
		for _, f := range p.entries {
			_ = tx.mapSet(b, f.Key, f.Value)
		}
	case refText, refXMLText:
		if p.text != "" {
			_ = (*Text)(b).Insert(tx, 0, p.text, nil)
		}
		for _, d := range p.delta {
			_ = (*Text)(b).insertDelta(tx, d)
		}
	}
}

// deleteChildren is ContentType.delete: every child item and map value is
// deleted with the type.
func (b *branch) deleteChildren(tx *Tx) {
	for it := b.start; it != nil; it = it.right {
		if !it.deleted() {
			it.delete(tx)
		} else if it.id.Clock < tx.beforeState[it.id.Client] {
			// deleted before: gc merges it later only if it is listed
			tx.mergeStructs = append(tx.mergeStructs, it)
		}
	}
	for _, it := range b.entries {
		if !it.deleted() {
			it.delete(tx)
		} else if it.id.Clock < tx.beforeState[it.id.Client] {
			tx.mergeStructs = append(tx.mergeStructs, it)
		}
	}
	delete(tx.changed, b)
}

// gcChildren is ContentType.gc: every child becomes a GC struct.
func (b *branch) gcChildren(store *structStore) {
	for it := b.start; it != nil; it = it.right {
		it.gc(store, true)
	}
	b.start = nil
	for _, it := range b.entries {
		for ; it != nil; it = it.left {
			it.gc(store, true)
		}
	}
	b.entries = nil
}
