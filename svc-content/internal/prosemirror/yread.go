package prosemirror

import (
	"regexp"

	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// ReadFragment reads a Y.XmlFragment as y-prosemirror builds an editor's
// document from it (createNodeFromYElement): each Y.XmlElement is the node
// its name names, with its attributes (unknown ones dropped, missing ones
// defaulted, values as stored), each Y.XmlText the text nodes of its delta
// with the formatting attributes as marks ("bold--hash" names the mark
// bold), adjacent text with equal marks joined. Content is not checked
// against the schema, as an editor does not check it. What an editor
// cannot build it drops, and so does ReadFragment: an element whose name is
// not a StarterKit node, a text holding an embed or an unknown mark (the
// whole Y.XmlText). Text or hooks at the top level make every editor fail
// to load the document: that is an error (ErrInvalid).
func ReadFragment(frag *yjs.XmlFragment) (*Node, error) {
	doc := &Node{Type: "doc"}
	for _, c := range frag.Children() {
		el, ok := c.(*yjs.XmlElement)
		if !ok {
			return nil, invalidf("the fragment holds %T at the top level; TipTap needs elements there", c)
		}
		if n := readElement(el); n != nil {
			doc.Content = append(doc.Content, n)
		}
	}
	return doc, nil
}

func readElement(el *yjs.XmlElement) *Node {
	var content []*Node
	for _, c := range el.Children() {
		switch t := c.(type) {
		case *yjs.XmlElement:
			if n := readElement(t); n != nil {
				content = append(content, n)
			}
		case *yjs.XmlText:
			content = append(content, readYText(t)...)
		}
	}
	t := starterKit.node(el.NodeName())
	if t == nil || t.isText() {
		return nil
	}
	return &Node{Type: t.name, Attrs: computeAttrs(t.attrs, el.Attributes()), Content: joinText(content)}
}

// overlapMark is the suffix y-prosemirror gives marks that may overlap
// themselves; StarterKit's do not, but a peer's may carry it.
var overlapMark = regexp.MustCompile(`^(.*)--[a-zA-Z0-9+/=]{8}$`)

func readYText(x *yjs.XmlText) []*Node {
	var out []*Node
	for _, d := range x.Delta() {
		s, ok := d.Insert.(string)
		if !ok || s == "" {
			return nil
		}
		n := &Node{Type: "text", Text: s}
		for name, v := range d.Attributes {
			if m := overlapMark.FindStringSubmatch(name); m != nil {
				name = m[1]
			}
			mt := starterKit.mark(name)
			if mt == nil {
				return nil
			}
			attrs, _ := v.(map[string]any)
			n.Marks = append(n.Marks, Mark{Type: name, Attrs: computeAttrs(mt.attrs, attrs)})
		}
		n.Marks = sortMarks(n.Marks)
		out = append(out, n)
	}
	return out
}

// sortMarks orders marks by rank as Mark.setFrom does.
func sortMarks(marks []Mark) []Mark {
	for i := 1; i < len(marks); i++ {
		for j := i; j > 0 && starterKit.mark(marks[j].Type).rank < starterKit.mark(marks[j-1].Type).rank; j-- {
			marks[j], marks[j-1] = marks[j-1], marks[j]
		}
	}
	return marks
}
