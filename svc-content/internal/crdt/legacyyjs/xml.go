package legacyyjs

import (
	"encoding/xml"
	"errors"
	"io"
	"sort"
	"strings"
)

// XMLNode is a node of an XML fragment: *XMLElement or XMLText.
type XMLNode interface{ xmlNode() }

// XMLElement becomes a Y.XmlElement: attributes are its map entries (string
// values), children its sequence.
type XMLElement struct {
	Name     string
	Attrs    []XMLAttr
	Children []XMLNode
}

// XMLAttr is one attribute, in document order.
type XMLAttr struct{ Name, Value string }

// XMLText becomes a Y.XmlText holding the string.
type XMLText string

func (*XMLElement) xmlNode() {}
func (XMLText) xmlNode()     {}

// ParseHTML reads an HTML or XML string into fragment nodes, leniently as
// HTML is written: HTML entities are decoded, void elements (<br>, <img>,
// ...) need no end tag, unclosed elements close at the end of the input or
// at the end tag of an element around them, an end tag that closes nothing
// is ignored, attributes without a value take their name as value, and
// names keep their prefix ("svg:rect") and case. Text keeps its whitespace
// (line ends normalised to "\n" as XML does); comments, processing
// instructions and directives (<!DOCTYPE>) are dropped. The first of
// repeated attributes wins. Only input that is not markup at all (such as
// "<" not followed by a name) is an error.
func ParseHTML(s string) ([]XMLNode, error) {
	dec := xml.NewDecoder(strings.NewReader(s))
	dec.Strict = false
	dec.AutoClose = xml.HTMLAutoClose
	dec.Entity = xml.HTMLEntity
	p := &htmlParser{root: &XMLElement{}}
	p.stack = []*XMLElement{p.root}
	for {
		// RawToken, not Token: Token would rewrite prefixes into namespace
		// URLs, and the element stack is kept here.
		tok, err := dec.RawToken()
		if errors.Is(err, io.EOF) {
			return p.root.Children, nil
		}
		if err != nil {
			return nil, err
		}
		p.token(xml.CopyToken(tok))
	}
}

type htmlParser struct {
	root  *XMLElement
	stack []*XMLElement // open elements, root first
}

func (p *htmlParser) top() *XMLElement { return p.stack[len(p.stack)-1] }

func (p *htmlParser) token(tok xml.Token) {
	p.autoClose(tok)
	switch t := tok.(type) {
	case xml.StartElement:
		el := &XMLElement{Name: qualified(t.Name)}
		seen := map[string]bool{}
		for _, a := range t.Attr {
			name := qualified(a.Name)
			if !seen[name] {
				seen[name] = true
				el.Attrs = append(el.Attrs, XMLAttr{Name: name, Value: a.Value})
			}
		}
		p.append(el)
		p.stack = append(p.stack, el)
	case xml.EndElement:
		p.close(qualified(t.Name))
	case xml.CharData:
		p.text(string(t))
	}
}

// autoClose closes an open void element (xml.HTMLAutoClose) unless tok is
// its own end tag, as xml.Decoder.Token does.
func (p *htmlParser) autoClose(tok xml.Token) {
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

// close ends the innermost open element named name and everything opened
// inside it; an end tag matching no open element is ignored.
func (p *htmlParser) close(name string) {
	for i := len(p.stack) - 1; i > 0; i-- {
		if strings.EqualFold(p.stack[i].Name, name) {
			p.stack = p.stack[:i]
			return
		}
	}
}

func (p *htmlParser) append(n XMLNode) {
	parent := p.top()
	parent.Children = append(parent.Children, n)
}

// text appends s, joining it to a text node right before it (text split
// by a dropped comment or a CDATA section is one node).
func (p *htmlParser) text(s string) {
	if s == "" {
		return
	}
	parent := p.top()
	if n := len(parent.Children); n > 0 {
		if prev, ok := parent.Children[n-1].(XMLText); ok {
			parent.Children[n-1] = prev + XMLText(s)
			return
		}
	}
	parent.Children = append(parent.Children, XMLText(s))
}

func qualified(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

// XMLString renders nodes as Y.XmlFragment.toString() does in Yjs: an
// element as <name a="v">children</name> with its name lower-cased and its
// attributes sorted by name, text as it is; nothing is escaped and void
// elements get an end tag too. It is what the stored fragment reads back
// as.
func XMLString(nodes []XMLNode) string {
	var sb strings.Builder
	for _, n := range nodes {
		writeXML(&sb, n)
	}
	return sb.String()
}

func writeXML(sb *strings.Builder, n XMLNode) {
	switch t := n.(type) {
	case XMLText:
		sb.WriteString(string(t))
	case *XMLElement:
		name := strings.ToLower(t.Name)
		attrs := append([]XMLAttr(nil), t.Attrs...)
		sort.SliceStable(attrs, func(i, j int) bool { return compareUTF16(attrs[i].Name, attrs[j].Name) < 0 })
		sb.WriteString("<" + name)
		for _, a := range attrs {
			sb.WriteString(" " + a.Name + `="` + a.Value + `"`)
		}
		sb.WriteString(">")
		for _, c := range t.Children {
			writeXML(sb, c)
		}
		sb.WriteString("</" + name + ">")
	}
}
