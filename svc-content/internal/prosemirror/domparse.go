package prosemirror

import (
	"regexp"
	"strings"

	"golang.org/x/net/html"
)

// This file follows ProseMirror's DOMParser (prosemirror-model from_dom.ts,
// version 1.25) for a whole document: the same places for nodes, wrapping
// of misplaced content, mark handling and whitespace rules, so that the
// document is the one TipTap's generateJSON builds. Parts DOMParser has
// for options TipTap's parse does not use (open slices, a context
// position, position tracking, nodes without a parent type) are left out.

const (
	wsPreserve = 1 << iota // keep whitespace, turn line breaks into hard breaks
	wsFull                 // keep whitespace and line breaks as they are
)

// Elements that are blocks in HTML: inline content before them is closed.
var blockTags = setOf("address", "article", "aside", "blockquote", "body", "canvas",
	"dd", "div", "dl", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2",
	"h3", "h4", "h5", "h6", "header", "hgroup", "hr", "li", "noscript", "ol", "output",
	"p", "pre", "section", "table", "tfoot", "ul")

// Elements whose content DOMParser drops.
var ignoreTags = setOf("head", "noscript", "object", "script", "style", "title")

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// nodeContext is a node being built: its type, attributes, marks, where
// its content stands in the content expression, and its content so far.
type nodeContext struct {
	typ     *nodeType
	attrs   map[string]any
	marks   []Mark
	solid   bool // entered for an element, not generated as a wrapper
	match   contentMatch
	matchOK bool // false once content did not fit (ProseMirror's null match)
	options int
	content []*Node
}

var trailingSpace = regexp.MustCompile(`[ \t\r\n\f]+$`)

// finish makes the node: trailing whitespace stripped unless kept, text
// joined, required content generated at the end.
func (c *nodeContext) finish() *Node {
	if c.options&wsPreserve == 0 && len(c.content) > 0 {
		last := c.content[len(c.content)-1]
		if last.Type == "text" {
			if m := trailingSpace.FindStringIndex(last.Text); m != nil {
				if m[0] == 0 {
					c.content = c.content[:len(c.content)-1]
				} else {
					trimmed := *last
					trimmed.Text = last.Text[:m[0]]
					c.content[len(c.content)-1] = &trimmed
				}
			}
		}
	}
	content := joinText(c.content)
	if c.matchOK {
		fill, _ := c.match.fillBefore(nil, true)
		content = append(content, fill...)
	}
	return &Node{Type: c.typ.name, Attrs: computeAttrs(c.typ.attrs, c.attrs), Content: content, Marks: c.marks}
}

// findWrapping returns the wrapper types a node of type t needs to go in
// this node's content next.
func (c *nodeContext) findWrapping(t *nodeType) ([]*nodeType, bool) {
	if !c.matchOK {
		start := c.typ.match
		if fill, ok := start.fillBefore([]*Node{{Type: t.name}}, false); ok {
			c.match, _ = start.matchNodes(fill)
			c.matchOK = true
		} else if wrap, ok := start.findWrapping(t); ok {
			c.match, c.matchOK = start, true
			return wrap, true
		} else {
			return nil, false
		}
	}
	return c.match.findWrapping(t)
}

// computeAttrs fills the attributes a rule did not give with defaults.
func computeAttrs(specs []attrSpec, given map[string]any) map[string]any {
	if len(specs) == 0 {
		return nil
	}
	a := make(map[string]any, len(specs))
	for _, s := range specs {
		if v, ok := given[s.name]; ok {
			a[s.name] = v
		} else {
			a[s.name] = s.def
		}
	}
	return a
}

type parseContext struct {
	nodes           []*nodeContext
	open            int
	localPreserveWS bool
}

func newParseContext() *parseContext {
	doc := starterKit.node("doc")
	return &parseContext{nodes: []*nodeContext{{typ: doc, solid: true, match: doc.match, matchOK: true}}}
}

func (p *parseContext) top() *nodeContext { return p.nodes[p.open] }

func (p *parseContext) addAll(parent *html.Node, marks []Mark) {
	for c := parent.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case html.TextNode:
			p.addText(c.Data, c.PrevSibling, marks)
		case html.ElementNode:
			p.addElement(c, marks)
		}
	}
}

var (
	collapsible   = regexp.MustCompile(`[ \t\r\n\f]+`)
	nonCollapsble = regexp.MustCompile(`[^ \t\r\n\f]`)
	lineBreak     = regexp.MustCompile(`\r?\n|\r`)
	crlf          = regexp.MustCompile(`\r\n?`)
)

// addText adds a DOM text node; before is the DOM node before it.
func (p *parseContext) addText(value string, before *html.Node, marks []Mark) {
	top := p.top()
	full := top.options&wsFull != 0
	preserve := full || p.localPreserveWS || top.options&wsPreserve != 0
	if !full && !top.typ.inlineContent() && !nonCollapsble.MatchString(value) {
		return // whitespace between blocks
	}
	switch {
	case !preserve:
		value = collapsible.ReplaceAllString(value, " ")
		if strings.HasPrefix(value, " ") && p.open == len(p.nodes)-1 {
			var last *Node
			if n := len(top.content); n > 0 {
				last = top.content[n-1]
			}
			if last == nil || (before != nil && isElement(before, "br")) ||
				(last.Type == "text" && strings.ContainsAny(last.Text[len(last.Text)-1:], " \t\r\n\f")) {
				value = value[1:]
			}
		}
	case full:
		value = crlf.ReplaceAllString(value, "\n")
	case strings.ContainsAny(value, "\r\n") && p.fitsHardBreak():
		for i, line := range lineBreak.Split(value, -1) {
			if i > 0 {
				p.insertNode(&Node{Type: "hardBreak"}, marks, true)
			}
			if line != "" {
				p.insertNode(&Node{Type: "text", Text: line}, marks, isBlank(line))
			}
		}
		value = ""
	default:
		value = lineBreak.ReplaceAllString(value, " ")
	}
	if value != "" {
		p.insertNode(&Node{Type: "text", Text: value}, marks, isBlank(value))
	}
}

func (p *parseContext) fitsHardBreak() bool {
	_, ok := p.top().findWrapping(starterKit.node("hardBreak"))
	return ok
}

// isBlank is JavaScript's !/\S/.test(s).
func isBlank(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return !isJSSpace(r) }) < 0
}

func isElement(n *html.Node, tag string) bool {
	return n.Type == html.ElementNode && n.Namespace == "" && n.Data == tag
}

// nodeName is the DOM nodeName lower-cased.
func nodeName(n *html.Node) string {
	return strings.ToLower(n.Data)
}
