package yjs

import (
	"slices"
	"strings"

	"github.com/opencollab/backend/svc-content/internal/yjs/lib0"
)

func (x *XmlText) text() *Text { return (*Text)(x) }

// Len is the length in UTF-16 code units.
func (x *XmlText) Len() int { return x.length }

// String is the text without marks.
func (x *XmlText) String() string { return x.text().String() }

// Delta is the text as a delta; marks are its attributes.
func (x *XmlText) Delta() []Delta { return x.text().Delta() }

// Insert inserts s at index (see Text.Insert).
func (x *XmlText) Insert(tx *Tx, index int, s string, attrs map[string]any) error {
	return x.text().Insert(tx, index, s, attrs)
}

// InsertEmbed inserts an embed or shared type at index.
func (x *XmlText) InsertEmbed(tx *Tx, index int, v any, attrs map[string]any) error {
	return x.text().InsertEmbed(tx, index, v, attrs)
}

// Delete deletes n units from index.
func (x *XmlText) Delete(tx *Tx, index, n int) error { return x.text().Delete(tx, index, n) }

// Format sets marks on n units from index.
func (x *XmlText) Format(tx *Tx, index, n int, attrs map[string]any) error {
	return x.text().Format(tx, index, n, attrs)
}

// SetAttribute sets an attribute of the node itself.
func (x *XmlText) SetAttribute(tx *Tx, key string, v any) error {
	return x.text().SetAttribute(tx, key, v)
}

// RemoveAttribute removes an attribute of the node itself.
func (x *XmlText) RemoveAttribute(tx *Tx, key string) error {
	return x.text().RemoveAttribute(tx, key)
}

// Attributes returns the attributes of the node itself.
func (x *XmlText) Attributes() map[string]any { return mapJSON((*branch)(x)) }

// ToString is YXmlText.toString: each run of the delta wrapped in one
// element per mark, <mark attr="v">, marks and their attributes sorted.
func (x *XmlText) ToString() string {
	var sb strings.Builder
	for _, op := range (*branch)(x).rawDelta() {
		nodes := markNodes(op.attrs)
		for _, n := range nodes {
			sb.WriteString("<" + n.name)
			for _, a := range n.attrs {
				sb.WriteString(" " + a.Key + `="` + lib0.ToString(a.Value) + `"`)
			}
			sb.WriteString(">")
		}
		sb.WriteString(lib0.ToString(op.insert))
		for i := len(nodes) - 1; i >= 0; i-- {
			sb.WriteString("</" + nodes[i].name + ">")
		}
	}
	return sb.String()
}

// ToJSON is ToString (as in Yjs).
func (x *XmlText) ToJSON() any { return x.ToString() }

// JSString is how JavaScript's String() renders the node.
func (x *XmlText) JSString() string { return x.ToString() }

type markNode struct {
	name  string
	attrs lib0.Object
}

// markNodes lists a run's marks with their attributes (the enumerable
// properties of each mark value, as JavaScript's for...in sees them).
func markNodes(attrs *attrMap) []markNode {
	nodes := make([]markNode, 0, attrs.size())
	for _, f := range attrs.fields {
		n := markNode{name: f.Key, attrs: forInProperties(f.Value)}
		slices.SortStableFunc(n.attrs, func(a, b lib0.Field) int { return lib0.CompareUTF16(a.Key, b.Key) })
		nodes = append(nodes, n)
	}
	slices.SortStableFunc(nodes, func(a, b markNode) int { return lib0.CompareUTF16(a.name, b.name) })
	return nodes
}

// forInProperties is what `for (const key in v)` visits: an object's keys,
// an array's or string's indexes, nothing for other values.
func forInProperties(v any) lib0.Object {
	switch t := v.(type) {
	case lib0.Object:
		return append(lib0.Object(nil), t...)
	case string:
		var o lib0.Object
		i := 0
		for _, r := range t {
			if r >= 0x10000 {
				o = append(o, lib0.Field{Key: itoa(i), Value: "\uFFFD"}, lib0.Field{Key: itoa(i + 1), Value: "\uFFFD"})
				i += 2
				continue
			}
			o = append(o, lib0.Field{Key: itoa(i), Value: string(r)})
			i++
		}
		return o
	}
	o, _ := flatKeys(v)
	return o
}
