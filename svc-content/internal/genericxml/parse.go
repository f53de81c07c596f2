// Package genericxml is the XML mapping for CRDT content keys other than
// TipTap's: markup becomes a Y.XmlFragment one to one, with no schema.
// Every element becomes a Y.XmlElement of the same name (case and prefix
// kept), its attributes string-valued element attributes, every text node
// (whitespace included) a Y.XmlText without formatting. The fragment reads
// back as Y.XmlFragment.toString() renders it.
package genericxml

import (
	"encoding/xml"
	"errors"
	"io"
	"strings"
)

// Node is an *Element or a Text.
type Node interface{ node() }

// Element is a Y.XmlElement: its attributes in document order, its
// children.
type Element struct {
	Name     string
	Attrs    []Attr
	Children []Node
}

// Attr is one attribute.
type Attr struct{ Name, Value string }

// Text is a Y.XmlText holding the string.
type Text string

func (*Element) node() {}
func (Text) node()     {}

// Parse reads HTML or XML leniently, as HTML is written: entities are
// decoded, void elements (<br>, <img>, ...) need no end tag, unclosed
// elements close at the end of the input or at the end tag of an element
// around them, an end tag that closes nothing is ignored, an attribute
// without a value takes its name as value, the first of repeated
// attributes wins, names keep their prefix ("svg:rect") and case. Text
// keeps its whitespace (line ends normalised to "\n"); comments,
// processing instructions and <!DOCTYPE> are dropped; CDATA is text. Only
// input that is not markup at all (a "<" not followed by a name) is an
// error.
func Parse(s string) ([]Node, error) {
	dec := xml.NewDecoder(strings.NewReader(s))
	dec.Strict = false
	dec.AutoClose = xml.HTMLAutoClose
	dec.Entity = xml.HTMLEntity
	root := &Element{}
	p := &parser{stack: []*Element{root}}
	for {
		// RawToken keeps prefixes as written (Token would resolve them to
		// namespace URLs) and leaves nesting to the parser.
		tok, err := dec.RawToken()
		if errors.Is(err, io.EOF) {
			return root.Children, nil
		}
		if err != nil {
			return nil, err
		}
		p.token(xml.CopyToken(tok))
	}
}

type parser struct{ stack []*Element }

func (p *parser) top() *Element { return p.stack[len(p.stack)-1] }

func (p *parser) token(tok xml.Token) {
	p.closeVoid(tok)
	switch t := tok.(type) {
	case xml.StartElement:
		el := &Element{Name: qualified(t.Name)}
		seen := map[string]bool{}
		for _, a := range t.Attr {
			if name := qualified(a.Name); !seen[name] {
				seen[name] = true
				el.Attrs = append(el.Attrs, Attr{Name: name, Value: a.Value})
			}
		}
		p.top().Children = append(p.top().Children, el)
		p.stack = append(p.stack, el)
	case xml.EndElement:
		name := qualified(t.Name)
		for i := len(p.stack) - 1; i > 0; i-- {
			if strings.EqualFold(p.stack[i].Name, name) {
				p.stack = p.stack[:i]
				break
			}
		}
	case xml.CharData:
		p.text(string(t))
	}
}

// closeVoid closes an open void element unless tok is its own end tag.
func (p *parser) closeVoid(tok xml.Token) {
	if len(p.stack) == 1 {
		return
	}
	name := p.top().Name
	for _, void := range xml.HTMLAutoClose {
		if strings.EqualFold(void, name) {
			if end, ok := tok.(xml.EndElement); !ok || !strings.EqualFold(qualified(end.Name), name) {
				p.stack = p.stack[:len(p.stack)-1]
			}
			return
		}
	}
}

// text appends s, joined to a text right before it (text split by a
// dropped comment or a CDATA section is one node).
func (p *parser) text(s string) {
	if s == "" {
		return
	}
	parent := p.top()
	if n := len(parent.Children); n > 0 {
		if prev, ok := parent.Children[n-1].(Text); ok {
			parent.Children[n-1] = prev + Text(s)
			return
		}
	}
	parent.Children = append(parent.Children, Text(s))
}

func qualified(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}
