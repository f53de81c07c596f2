package yjs

import (
	"slices"
	"strings"

	"github.com/opencollab/backend/svc-content/internal/yjs/lib0"
)

// XmlFragment is Y.XmlFragment: a sequence of XML nodes (XmlElement,
// XmlText).
type XmlFragment branch

// XmlElement is Y.XmlElement: a node name, attributes (any values, as
// y-prosemirror stores them) and child nodes.
type XmlElement branch

// XmlText is Y.XmlText: a Text inside an XML tree; its formatting
// attributes are marks.
type XmlText branch

// XmlHook is Y.XmlHook: a named map inside an XML tree.
type XmlHook branch

// NewXmlElement is an element not in a document yet, with attributes and
// children (NewXmlElement, NewXmlText values), to insert with Insert.
func NewXmlElement(name string, attrs map[string]any, children ...any) *XmlElement {
	b := newBranch(refXMLElement, name)
	b.prelim = &prelimContent{values: children, entries: lib0.ObjectFromMap(attrs)}
	return (*XmlElement)(b)
}

// NewXmlText is an XML text not in a document yet, holding delta (runs of
// text with marks); see Text.Delta.
func NewXmlText(delta ...Delta) *XmlText {
	b := newBranch(refXMLText, "")
	b.prelim = &prelimContent{delta: delta}
	return (*XmlText)(b)
}

// XmlFragment returns the root fragment name, creating it
// (doc.getXmlFragment); nil when the root exists as another kind.
func (d *Doc) XmlFragment(name string) *XmlFragment {
	return (*XmlFragment)(d.rootAs(name, refXMLFragment))
}

// The sequence half, shared by XmlFragment and XmlElement.

// Len is the number of child nodes.
func (f *XmlFragment) Len() int { return f.length }

// Children returns the child nodes (*XmlElement, *XmlText, ...).
func (f *XmlFragment) Children() []any { return (*branch)(f).values() }

// Get returns the child at index.
func (f *XmlFragment) Get(index int) (any, bool) { return (*branch)(f).get(index) }

// Insert inserts nodes made with NewXmlElement / NewXmlText at index.
func (f *XmlFragment) Insert(tx *Tx, index int, nodes ...any) error {
	if err := checkTx((*branch)(f), tx, "XML node"); err != nil {
		return err
	}
	return tx.insert((*branch)(f), index, nodes)
}

// InsertElement inserts an empty element named name at index.
func (f *XmlFragment) InsertElement(tx *Tx, index int, name string) (*XmlElement, error) {
	el := NewXmlElement(name, nil)
	if err := f.Insert(tx, index, el); err != nil {
		return nil, err
	}
	return el, nil
}

// InsertText inserts an empty XML text at index.
func (f *XmlFragment) InsertText(tx *Tx, index int) (*XmlText, error) {
	t := NewXmlText()
	if err := f.Insert(tx, index, t); err != nil {
		return nil, err
	}
	return t, nil
}

// Delete deletes n child nodes from index.
func (f *XmlFragment) Delete(tx *Tx, index, n int) error {
	if err := checkTx((*branch)(f), tx, "XML node"); err != nil {
		return err
	}
	return tx.deleteFrom((*branch)(f), index, n)
}

// ToString is toString of Yjs: the children's XML, concatenated.
func (f *XmlFragment) ToString() string { return childrenString((*branch)(f)) }

// ToJSON is ToString (as in Yjs).
func (f *XmlFragment) ToJSON() any { return f.ToString() }

// JSString is how JavaScript's String() renders the node.
func (f *XmlFragment) JSString() string { return f.ToString() }

func childrenString(b *branch) string {
	var sb strings.Builder
	for _, v := range b.values() {
		sb.WriteString(lib0.ToString(v))
	}
	return sb.String()
}

func (e *XmlElement) frag() *XmlFragment { return (*XmlFragment)(e) }

// NodeName is the element's name as written.
func (e *XmlElement) NodeName() string { return e.name }

// Len is the number of child nodes.
func (e *XmlElement) Len() int { return e.length }

// Children returns the child nodes.
func (e *XmlElement) Children() []any { return e.frag().Children() }

// Get returns the child at index.
func (e *XmlElement) Get(index int) (any, bool) { return e.frag().Get(index) }

// Insert inserts nodes made with NewXmlElement / NewXmlText at index.
func (e *XmlElement) Insert(tx *Tx, index int, nodes ...any) error {
	return e.frag().Insert(tx, index, nodes...)
}

// InsertElement inserts an empty element at index.
func (e *XmlElement) InsertElement(tx *Tx, index int, name string) (*XmlElement, error) {
	return e.frag().InsertElement(tx, index, name)
}

// InsertText inserts an empty XML text at index.
func (e *XmlElement) InsertText(tx *Tx, index int) (*XmlText, error) {
	return e.frag().InsertText(tx, index)
}

// Delete deletes n child nodes from index.
func (e *XmlElement) Delete(tx *Tx, index, n int) error { return e.frag().Delete(tx, index, n) }

// Attributes returns the attributes (values as JSON values).
func (e *XmlElement) Attributes() map[string]any { return mapJSON((*branch)(e)) }

// Attribute returns one attribute.
func (e *XmlElement) Attribute(key string) (any, bool) { return (*Map)(e).Get(key) }

// SetAttribute sets an attribute to any value (a string, or typed as
// y-prosemirror stores node attributes: level 2 is a number).
func (e *XmlElement) SetAttribute(tx *Tx, key string, v any) error {
	if err := checkTx((*branch)(e), tx, "XML element"); err != nil {
		return err
	}
	return tx.mapSet((*branch)(e), key, v)
}

// RemoveAttribute removes an attribute.
func (e *XmlElement) RemoveAttribute(tx *Tx, key string) error {
	if err := checkTx((*branch)(e), tx, "XML element"); err != nil {
		return err
	}
	tx.mapDelete((*branch)(e), key)
	return nil
}

// ToString is toString of Yjs: <name a="v">children</name>, the name
// lower-cased, attributes sorted, nothing escaped.
func (e *XmlElement) ToString() string {
	b := (*branch)(e)
	keys := make([]string, 0, len(b.entries))
	for k, it := range b.entries {
		if !it.deleted() {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, lib0.CompareUTF16)
	name := jsLower(e.name)
	var sb strings.Builder
	sb.WriteString("<" + name)
	for _, k := range keys {
		v, _ := b.mapGet(k)
		sb.WriteString(" " + k + `="` + lib0.ToString(v) + `"`)
	}
	sb.WriteString(">")
	sb.WriteString(childrenString(b))
	sb.WriteString("</" + name + ">")
	return sb.String()
}

// ToJSON is ToString (as in Yjs).
func (e *XmlElement) ToJSON() any { return e.ToString() }

// JSString is how JavaScript's String() renders the node.
func (e *XmlElement) JSString() string { return e.ToString() }

// jsLower is JavaScript's toLowerCase for the cases Go's differs on.
func jsLower(s string) string {
	return strings.ToLower(strings.ReplaceAll(s, "\u0130", "i\u0307"))
}

// NewXmlHook is a hook not in a document yet.
func NewXmlHook(name string, entries map[string]any) *XmlHook {
	b := newBranch(refXMLHook, name)
	b.prelim = &prelimContent{entries: lib0.ObjectFromMap(entries)}
	return (*XmlHook)(b)
}

// HookName is the hook's name.
func (h *XmlHook) HookName() string { return h.name }

// ToJSON is the hook's entries (a hook is a map).
func (h *XmlHook) ToJSON() any { return mapJSON((*branch)(h)) }

// JSString is how JavaScript's String() renders a hook.
func (h *XmlHook) JSString() string { return "[object Object]" }
