package genericxml

import (
	"slices"
	"strings"

	"github.com/opencollab/backend/svc-content/internal/yjs"
	"github.com/opencollab/backend/svc-content/internal/yjs/lib0"
)

// String renders nodes as Y.XmlFragment.toString() renders the fragment
// Write makes of them: <name a="v">children</name> with the name
// lower-cased and attributes sorted (UTF-16 order), text as it is, nothing
// escaped, void elements with an end tag too.
func String(nodes []Node) string {
	var sb strings.Builder
	for _, n := range nodes {
		writeString(&sb, n)
	}
	return sb.String()
}

func writeString(sb *strings.Builder, n Node) {
	switch t := n.(type) {
	case Text:
		sb.WriteString(string(t))
	case *Element:
		name := strings.ToLower(t.Name)
		attrs := slices.Clone(t.Attrs)
		slices.SortStableFunc(attrs, func(a, b Attr) int { return lib0.CompareUTF16(a.Name, b.Name) })
		sb.WriteString("<" + name)
		for _, a := range attrs {
			sb.WriteString(" " + a.Name + `="` + a.Value + `"`)
		}
		sb.WriteString(">")
		for _, c := range t.Children {
			writeString(sb, c)
		}
		sb.WriteString("</" + name + ">")
	}
}

// Write makes frag hold nodes. Top-level children that render the same
// from the left and from the right are kept; the ones between are
// replaced, so a peer holding the old state converges without duplicates
// and keeps its concurrent edits to the unchanged children.
func Write(tx *yjs.Tx, frag *yjs.XmlFragment, nodes []Node) error {
	have := frag.Children()
	minCnt := min(len(have), len(nodes))
	left, right := 0, 0
	for left < minCnt && rendered(have[left]) == String(nodes[left:left+1]) {
		left++
	}
	for left+right < minCnt && rendered(have[len(have)-right-1]) == String(nodes[len(nodes)-right-1:len(nodes)-right]) {
		right++
	}
	if n := len(have) - left - right; n > 0 {
		if err := frag.Delete(tx, left, n); err != nil {
			return err
		}
	}
	if left+right == len(nodes) {
		return nil
	}
	ys := make([]any, 0, len(nodes)-left-right)
	for _, n := range nodes[left : len(nodes)-right] {
		ys = append(ys, newYNode(n))
	}
	return frag.Insert(tx, left, ys...)
}

func rendered(y any) string {
	if s, ok := y.(interface{ ToString() string }); ok {
		return s.ToString()
	}
	return ""
}

func newYNode(n Node) any {
	switch t := n.(type) {
	case Text:
		if t == "" {
			return yjs.NewXmlText()
		}
		return yjs.NewXmlText(yjs.Delta{Insert: string(t), Attributes: map[string]any{}})
	case *Element:
		attrs := make(map[string]any, len(t.Attrs))
		for _, a := range t.Attrs {
			attrs[a.Name] = a.Value
		}
		children := make([]any, len(t.Children))
		for i, c := range t.Children {
			children[i] = newYNode(c)
		}
		return yjs.NewXmlElement(t.Name, attrs, children...)
	}
	return nil
}
