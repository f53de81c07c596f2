package prosemirror

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sort"
)

// Node is a ProseMirror node of TipTap's StarterKit schema, shaped as
// TipTap's editor.getJSON() writes it. Attrs holds every attribute of the
// node's type (nil for types without attributes) with JSON-typed values:
// nil, string, float64 or bool. Text is set on text nodes only.
type Node struct {
	Type    string
	Attrs   map[string]any
	Content []*Node
	Marks   []Mark
	Text    string
}

// Mark is a mark on a text or inline node. Marks of a node are kept sorted
// by rank (link, bold, code, italic, strike, underline) as ProseMirror
// keeps them.
type Mark struct {
	Type  string
	Attrs map[string]any
}

// MarshalJSON writes the node as ProseMirror's Node.toJSON does: keys type,
// attrs, content, marks, text, attributes in schema order.
func (n *Node) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"type":`)
	writeJSON(&b, n.Type)
	if n.Attrs != nil {
		b.WriteString(`,"attrs":`)
		writeAttrs(&b, n.Attrs, nodeAttrSpecs(n.Type))
	}
	if len(n.Content) > 0 {
		b.WriteString(`,"content":`)
		writeJSON(&b, n.Content)
	}
	if len(n.Marks) > 0 {
		b.WriteString(`,"marks":`)
		writeJSON(&b, n.Marks)
	}
	if n.Type == "text" {
		b.WriteString(`,"text":`)
		writeJSON(&b, n.Text)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// MarshalJSON writes {"type": ..., "attrs": {...}} as Mark.toJSON does.
func (m Mark) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"type":`)
	writeJSON(&b, m.Type)
	if m.Attrs != nil {
		b.WriteString(`,"attrs":`)
		var specs []attrSpec
		if t := starterKit.mark(m.Type); t != nil {
			specs = t.attrs
		}
		writeAttrs(&b, m.Attrs, specs)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func nodeAttrSpecs(typ string) []attrSpec {
	if t := starterKit.node(typ); t != nil {
		return t.attrs
	}
	return nil
}

// writeAttrs writes attrs with the schema's attributes first, in schema
// order, and any others sorted.
func writeAttrs(b *bytes.Buffer, attrs map[string]any, specs []attrSpec) {
	keys := make([]string, 0, len(attrs))
	known := map[string]bool{}
	for _, s := range specs {
		if _, ok := attrs[s.name]; ok {
			keys = append(keys, s.name)
			known[s.name] = true
		}
	}
	var rest []string
	for k := range attrs {
		if !known[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	b.WriteByte('{')
	for i, k := range append(keys, rest...) {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSON(b, k)
		b.WriteByte(':')
		writeJSON(b, attrs[k])
	}
	b.WriteByte('}')
}

// writeJSON encodes v without HTML escaping, as JSON.stringify does.
func writeJSON(b *bytes.Buffer, v any) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only NaN or infinities fail; the parsers never produce them.
		b.WriteString("null")
		return
	}
	b.Truncate(b.Len() - 1) // Encode's newline
}

// markEq reports whether two marks are the same (type and attributes).
func markEq(a, b Mark) bool {
	return a.Type == b.Type && attrsEqual(a.Attrs, b.Attrs)
}

func attrsEqual(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || !reflect.DeepEqual(v, w) {
			return false
		}
	}
	return true
}

func sameMarks(a, b []Mark) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !markEq(a[i], b[i]) {
			return false
		}
	}
	return true
}

// addMark adds m to the sorted set as Mark.addToSet does: a mark that m
// excludes is removed, m is dropped when a mark in the set excludes it,
// and the set stays sorted by rank.
func addMark(set []Mark, m Mark) []Mark {
	mt := starterKit.mark(m.Type)
	var out []Mark
	placed := false
	for _, other := range set {
		if markEq(m, other) {
			return set
		}
		ot := starterKit.mark(other.Type)
		switch {
		case mt.excludesType(ot):
			continue
		case ot.excludesType(mt):
			return set
		}
		if !placed && ot.rank > mt.rank {
			out = append(out, m)
			placed = true
		}
		out = append(out, other)
	}
	if !placed {
		out = append(out, m)
	}
	return out
}

// sameMarkup reports whether two text nodes may merge into one (Fragment
// joins adjacent text nodes with equal marks).
func sameMarkup(a, b *Node) bool {
	return a.Type == b.Type && attrsEqual(a.Attrs, b.Attrs) && sameMarks(a.Marks, b.Marks)
}

// joinText merges adjacent text nodes with the same marks, as ProseMirror's
// Fragment.fromArray does.
func joinText(nodes []*Node) []*Node {
	out := nodes[:0:0]
	for _, n := range nodes {
		if k := len(out); k > 0 && n.Type == "text" && out[k-1].Type == "text" && sameMarkup(out[k-1], n) {
			merged := *out[k-1]
			merged.Text += n.Text
			out[k-1] = &merged
			continue
		}
		out = append(out, n)
	}
	return out
}
