package prosemirror

import (
	"strings"

	"golang.org/x/net/html"
)

// addElement adds a DOM element: by its parse rule, or, without one, its
// content in place of it (closing inline content first for HTML block
// elements), as DOMParser.addElement does.
func (p *parseContext) addElement(el *html.Node, marks []Mark) {
	outerWS := p.localPreserveWS
	defer func() { p.localPreserveWS = outerWS }()
	top := p.top()
	if isElement(el, "pre") || strings.Contains(parseStyle(attr(el, "style")).whiteSpace, "pre") {
		p.localPreserveWS = true
	}
	name := nodeName(el)
	if name == "ol" || name == "ul" {
		normalizeList(el)
	}
	rule, attrs := matchTag(el)
	switch {
	case rule == nil && ignoreTags[name]:
		return
	case rule == nil:
		sync := false
		if blockTags[name] {
			if len(top.content) > 0 && top.content[0].isInline() && p.open > 0 {
				p.open--
				top = p.top()
			}
			sync = true
		} else if el.FirstChild == nil {
			p.leafFallback(el, marks)
			return
		}
		p.addAll(el, readStyles(el, marks))
		if sync {
			p.sync(top)
		}
	default:
		p.addByRule(el, rule, attrs, readStyles(el, marks))
	}
}

// leafFallback turns a <br> that has no place as a hard break into a line
// break in text.
func (p *parseContext) leafFallback(el *html.Node, marks []Mark) {
	if isElement(el, "br") && p.top().typ.inlineContent() {
		p.addText("\n", nil, marks)
	}
}

func (p *parseContext) addByRule(el *html.Node, rule *tagRule, attrs map[string]any, marks []Mark) {
	if rule.mark != "" {
		p.addAll(el, append(marks[:len(marks):len(marks)], newMark(rule.mark, attrs)))
		return
	}
	typ := starterKit.node(rule.node)
	if typ.isLeaf() {
		n := &Node{Type: typ.name, Attrs: computeAttrs(typ.attrs, attrs)}
		if !p.insertNode(n, marks, isElement(el, "br")) {
			p.leafFallback(el, marks)
		}
		return
	}
	ws := 0
	if rule.preserveFull {
		ws = wsPreserve | wsFull
	}
	inner, entered := p.enter(typ, attrs, marks, ws)
	if entered {
		marks = inner
	}
	startIn := p.top()
	p.addAll(el, marks)
	if entered && p.sync(startIn) {
		p.open--
	}
}

// findPlace finds the open node (innermost first) where node fits with the
// fewest wrappers, a solid node costing 2 to leave (cautious: not left at
// all), makes it the innermost open node and enters the wrappers. It
// returns the marks not applied to the wrappers.
func (p *parseContext) findPlace(t *nodeType, marks []Mark, cautious bool) ([]Mark, bool) {
	var route []*nodeType
	var at *nodeContext
	penalty := 0
	for depth := p.open; depth >= 0; depth-- {
		cx := p.nodes[depth]
		found, ok := cx.findWrapping(t)
		if ok && (at == nil || len(route) > len(found)+penalty) {
			route, at = found, cx
			if len(found) == 0 {
				break
			}
		}
		if cx.solid {
			if cautious {
				break
			}
			penalty += 2
		}
	}
	if at == nil {
		return nil, false
	}
	p.sync(at)
	for _, w := range route {
		marks = p.enterInner(w, nil, marks, false, 0)
	}
	return marks, true
}

// insertNode places a leaf or text node; marks its parent allows are set
// on it.
func (p *parseContext) insertNode(n *Node, marks []Mark, cautious bool) bool {
	t := starterKit.node(n.Type)
	inner, ok := p.findPlace(t, marks, cautious)
	if !ok {
		return false
	}
	p.closeExtra()
	top := p.top()
	if top.matchOK {
		top.match, top.matchOK = top.match.matchType(t)
	}
	var set []Mark
	for _, m := range append(inner[:len(inner):len(inner)], n.Marks...) {
		if top.typ.allowsMark(starterKit.mark(m.Type)) {
			set = addMark(set, m)
		}
	}
	placed := *n
	placed.Marks = set
	top.content = append(top.content, &placed)
	return true
}

func (p *parseContext) enter(t *nodeType, attrs map[string]any, marks []Mark, ws int) ([]Mark, bool) {
	if _, ok := p.findPlace(t, marks, false); !ok {
		return nil, false
	}
	return p.enterInner(t, attrs, marks, true, ws), true
}

// enterInner opens a node of type t; marks its parent allows go on the
// node itself, the others are returned for its content.
func (p *parseContext) enterInner(t *nodeType, attrs map[string]any, marks []Mark, solid bool, ws int) []Mark {
	p.closeExtra()
	top := p.top()
	if top.matchOK {
		top.match, top.matchOK = top.match.matchType(t)
	}
	options := top.options
	switch {
	case ws != 0:
		options = ws
	case t.code:
		options = wsPreserve | wsFull
	}
	var apply, rest []Mark
	for _, m := range marks {
		if top.typ.allowsMark(starterKit.mark(m.Type)) {
			apply = addMark(apply, m)
		} else {
			rest = append(rest, m)
		}
	}
	p.nodes = append(p.nodes, &nodeContext{typ: t, attrs: attrs, marks: apply, solid: solid,
		match: t.match, matchOK: true, options: options})
	p.open++
	return rest
}

// closeExtra finishes the nodes above the innermost open one.
func (p *parseContext) closeExtra() {
	for i := len(p.nodes) - 1; i > p.open; i-- {
		parent := p.nodes[i-1]
		parent.content = append(parent.content, p.nodes[i].finish())
	}
	p.nodes = p.nodes[:p.open+1]
}

func (p *parseContext) finish() *Node {
	p.open = 0
	p.closeExtra()
	return p.nodes[0].finish()
}

// sync makes to the innermost open node; nodes left while inside a <pre>
// keep their whitespace from then on.
func (p *parseContext) sync(to *nodeContext) bool {
	for i := p.open; i >= 0; i-- {
		if p.nodes[i] == to {
			p.open = i
			return true
		}
		if p.localPreserveWS {
			p.nodes[i].options |= wsPreserve
		}
	}
	return false
}

// normalizeList moves a list that directly follows a list item into that
// item (<ul><li>a</li><ul>...</ul></ul>), as DOMParser does.
func normalizeList(list *html.Node) {
	var prevItem *html.Node
	for c := list.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		switch name := nodeName(c); {
		case (name == "ul" || name == "ol") && prevItem != nil:
			list.RemoveChild(c)
			prevItem.AppendChild(c)
			c = prevItem
		case name == "li":
			prevItem = c
		default:
			prevItem = nil
		}
	}
}

func (n *Node) isInline() bool {
	t := starterKit.node(n.Type)
	return t != nil && t.inline
}
