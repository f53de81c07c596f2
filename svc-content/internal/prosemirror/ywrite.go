package prosemirror

import (
	"github.com/opencollab/backend/svc-content/internal/yjs"
	"github.com/opencollab/backend/svc-content/internal/yjs/lib0"
)

// WriteFragment makes frag hold doc, writing what y-prosemirror's
// updateYFragment writes when an editor's document changes (and, on an
// empty fragment, what prosemirrorJSONToYXmlFragment writes): one
// Y.XmlElement per node, named after its type, with its non-null
// attributes as typed values; one Y.XmlText per run of adjacent text
// nodes, each text node an insert whose formatting attributes are its
// marks ({bold: {}}, {link: {href, target, rel, class, title}}). On a
// fragment that already holds content, children equal from the left and
// the right are kept, elements of the same type are updated in place
// (attributes set or removed, children recursively), texts are patched
// with the common prefix and suffix kept, the rest is deleted and
// inserted, so peers holding the old state converge without duplicates.
// Marks of non-text nodes (a hard break inside <em>) are not stored, as
// y-prosemirror stores none.
func WriteFragment(tx *yjs.Tx, frag *yjs.XmlFragment, doc *Node) error {
	return updateChildren(tx, frag, doc)
}

// yParent is what XmlFragment and XmlElement share.
type yParent interface {
	Children() []any
	Insert(tx *yjs.Tx, index int, nodes ...any) error
	Delete(tx *yjs.Tx, index, n int) error
}

// pChild is a child as y-prosemirror pairs them with Y children: an
// element node, or a run of text nodes (one Y.XmlText).
type pChild struct {
	node *Node
	run  []*Node
}

// childrenOf groups a node's content into elements and text runs
// (normalizePNodeContent).
func childrenOf(n *Node) []pChild {
	var out []pChild
	for _, c := range n.Content {
		if c.Type == "text" {
			if k := len(out); k > 0 && out[k-1].run != nil {
				out[k-1].run = append(out[k-1].run, c)
				continue
			}
			out = append(out, pChild{run: []*Node{c}})
			continue
		}
		out = append(out, pChild{node: c})
	}
	return out
}

// newYNode builds the Y type for a child, as createTypeFromTextOrElementNode.
func newYNode(p pChild) any {
	if p.run != nil {
		delta := make([]yjs.Delta, len(p.run))
		for i, t := range p.run {
			delta[i] = yjs.Delta{Insert: t.Text, Attributes: marksToAttributes(t.Marks)}
		}
		return yjs.NewXmlText(delta...)
	}
	children := make([]any, 0, len(p.node.Content))
	for _, c := range childrenOf(p.node) {
		children = append(children, newYNode(c))
	}
	return yjs.NewXmlElement(p.node.Type, setAttrs(p.node), children...)
}

// setAttrs are the attributes y-prosemirror sets: those not null.
func setAttrs(n *Node) map[string]any {
	out := map[string]any{}
	for k, v := range n.Attrs {
		if v != nil {
			out[k] = v
		}
	}
	return out
}

// marksToAttributes is the formatting of a text node: each mark's name to
// its attributes, in the order of the mark type's attributes (an empty
// object for marks without attributes; never nil, so that an unmarked run
// does not continue the marks before it).
func marksToAttributes(marks []Mark) map[string]any {
	out := make(map[string]any, len(marks))
	for _, m := range marks {
		obj := lib0.Object{}
		for _, s := range starterKit.mark(m.Type).attrs {
			obj = append(obj, lib0.Field{Key: s.name, Value: m.Attrs[s.name]})
		}
		out[m.Type] = obj
	}
	return out
}

func updateElement(tx *yjs.Tx, el *yjs.XmlElement, p *Node) error {
	have := el.Attributes()
	for _, s := range starterKit.node(p.Type).attrs {
		v := p.Attrs[s.name]
		if v == nil {
			if _, ok := have[s.name]; ok {
				if err := el.RemoveAttribute(tx, s.name); err != nil {
					return err
				}
			}
			continue
		}
		if old, ok := have[s.name]; !ok || !strictEqual(old, v) {
			if err := el.SetAttribute(tx, s.name, v); err != nil {
				return err
			}
		}
	}
	for k := range have {
		if _, ok := p.Attrs[k]; !ok {
			if err := el.RemoveAttribute(tx, k); err != nil {
				return err
			}
		}
	}
	return updateChildren(tx, el, p)
}
