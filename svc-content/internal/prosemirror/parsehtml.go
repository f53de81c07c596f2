package prosemirror

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"golang.org/x/net/html"
)

// ErrInvalid marks an input that cannot become a StarterKit document; the
// error text names the element, node, mark or attribute at fault.
var ErrInvalid = errors.New("invalid content")

func invalidf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...)
}

// lossyElements are the HTML elements whose content TipTap's StarterKit
// would drop without a trace (an image, a form control's value, a table's
// cell boundaries, the text of <title>/<noscript>/<template>): ParseHTML
// refuses them instead of seeding a document that silently lacks them.
var lossyElements = setOf("audio", "canvas", "embed", "iframe", "img", "input", "math",
	"noscript", "object", "picture", "select", "svg", "table", "template", "textarea",
	"title", "video")

// ParseHTML reads HTML into the document TipTap 3 (StarterKit) builds from
// it with generateJSON(html, [StarterKit]) or an editor's content option:
// the HTML is parsed as a browser does (<body>html</body>, scripting off),
// TipTap's whitespace-only text nodes ("\n", "\n" and two spaces) are
// removed, and ProseMirror's DOMParser rules place the content. Elements
// without a rule (div, span, section, font, ...) are dropped and their
// content kept; <script> and <style> are dropped with their content, as
// TipTap does. The lossy elements above are refused with ErrInvalid, and
// so is an <ol start> that is not a number, HTML whose text would all be
// lost, and HTML nesting more than 512 elements (the HTML parser's limit).
func ParseHTML(s string) (*Node, error) {
	doc, err := html.ParseWithOptions(strings.NewReader("<body>"+s+"</body>"), html.ParseOptionEnableScripting(false))
	if err != nil {
		return nil, invalidf("HTML cannot be parsed: %v", err)
	}
	body := findElement(doc, "body")
	if body == nil {
		return nil, invalidf("HTML has no body")
	}
	removeWhitespaceText(body)
	if err := refuseLossy(body); err != nil {
		return nil, err
	}
	p := newParseContext()
	p.addAll(body, nil)
	out := p.finish()
	if err := checkParsed(out); err != nil {
		return nil, err
	}
	if !hasText(out) && hasDOMText(body) {
		return nil, invalidf("no content of the HTML can be shown by a TipTap editor")
	}
	return out, nil
}

func findElement(n *html.Node, tag string) *html.Node {
	if isElement(n, tag) {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := findElement(c, tag); f != nil {
			return f
		}
	}
	return nil
}

// removeWhitespaceText is TipTap's elementFromString clean-up: text nodes
// that are exactly "\n" or "\n" and two whitespace characters go.
func removeWhitespaceText(n *html.Node) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		switch c.Type {
		case html.TextNode:
			if r := []rune(c.Data); len(c.Data) > 0 && c.Data[0] == '\n' &&
				(len(r) == 1 || (len(r) == 3 && isJSSpace(r[1]) && isJSSpace(r[2]))) {
				n.RemoveChild(c)
			}
		case html.ElementNode:
			removeWhitespaceText(c)
		}
		c = next
	}
}

func refuseLossy(n *html.Node) error {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if name := nodeName(c); lossyElements[name] {
			return invalidf("element <%s> has no place in a TipTap StarterKit document; TipTap would drop it", name)
		}
		if err := refuseLossy(c); err != nil {
			return err
		}
	}
	return nil
}

// checkParsed refuses what the parse kept but cannot be stored: an
// ordered list start that is not a number (TipTap would store NaN).
func checkParsed(n *Node) error {
	if n.Type == "orderedList" {
		if f, ok := n.Attrs["start"].(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
			return invalidf("<ol start> must be a number")
		}
	}
	for _, c := range n.Content {
		if err := checkParsed(c); err != nil {
			return err
		}
	}
	return nil
}

func hasText(n *Node) bool {
	if n.Type == "text" || n.Type == "hardBreak" || n.Type == "horizontalRule" {
		return true
	}
	for _, c := range n.Content {
		if hasText(c) {
			return true
		}
	}
	return false
}

func hasDOMText(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if (c.Type == html.TextNode && !isBlank(c.Data)) || hasDOMText(c) {
			return true
		}
	}
	return false
}

func newMark(typ string, attrs map[string]any) Mark {
	return Mark{Type: typ, Attrs: computeAttrs(starterKit.mark(typ).attrs, attrs)}
}
