package prosemirror

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/net/html"
)

// tagRule is one parseHTML rule of a StarterKit extension, in the order
// ProseMirror's DOMParser tries them (marks first, then nodes, each in
// schema order). attrs reads the attributes TipTap reads from the element
// (the rule's own getAttrs plus every extension attribute: its parseHTML,
// or the element's attribute of the same name through TipTap's fromString);
// it returns false when the rule does not apply to the element.
type tagRule struct {
	tag          string
	node, mark   string
	preserveFull bool // preserveWhitespace: "full"
	attrs        func(el *html.Node) (map[string]any, bool)
}

var tagRules = []tagRule{
	{tag: "a", mark: "link", attrs: linkAttrs},
	{tag: "strong", mark: "bold"},
	{tag: "b", mark: "bold", attrs: unlessStyle(func(s inlineStyle) string { return s.fontWeight })},
	{tag: "code", mark: "code"},
	{tag: "em", mark: "italic"},
	{tag: "i", mark: "italic", attrs: unlessStyle(func(s inlineStyle) string { return s.fontStyle })},
	{tag: "s", mark: "strike"},
	{tag: "del", mark: "strike"},
	{tag: "strike", mark: "strike"},
	{tag: "u", mark: "underline"},
	{tag: "p", node: "paragraph"},
	{tag: "blockquote", node: "blockquote"},
	{tag: "ul", node: "bulletList"},
	{tag: "pre", node: "codeBlock", preserveFull: true, attrs: codeBlockAttrs},
	{tag: "br", node: "hardBreak"},
	{tag: "h1", node: "heading", attrs: headingAttrs(1)},
	{tag: "h2", node: "heading", attrs: headingAttrs(2)},
	{tag: "h3", node: "heading", attrs: headingAttrs(3)},
	{tag: "h4", node: "heading", attrs: headingAttrs(4)},
	{tag: "h5", node: "heading", attrs: headingAttrs(5)},
	{tag: "h6", node: "heading", attrs: headingAttrs(6)},
	{tag: "hr", node: "horizontalRule"},
	{tag: "li", node: "listItem"},
	{tag: "ol", node: "orderedList", attrs: orderedListAttrs},
}

// matchTag returns the first rule that applies to el and its attributes.
func matchTag(el *html.Node) (*tagRule, map[string]any) {
	if el.Namespace != "" {
		return nil, nil
	}
	for i := range tagRules {
		r := &tagRules[i]
		if r.tag != el.Data {
			continue
		}
		if r.attrs == nil {
			return r, nil
		}
		if a, ok := r.attrs(el); ok {
			return r, a
		}
	}
	return nil, nil
}

// styleRule is a parseHTML rule on a CSS property (value: only when the
// property has exactly that value). clear removes the mark instead of
// adding it; consuming false lets the next rule on the property apply too.
type styleRule struct {
	prop, value string
	mark        string
	clear       bool
	keep        bool // consuming: false
	applies     func(value string) bool
}

var boldWeight = regexp.MustCompile(`^(bold(er)?|[5-9]\d{2,})$`)

var styleRules = []styleRule{
	{prop: "font-weight", value: "400", mark: "bold", clear: true},
	{prop: "font-weight", mark: "bold", applies: boldWeight.MatchString},
	{prop: "font-style", value: "normal", mark: "italic", clear: true},
	{prop: "font-style", value: "italic", mark: "italic"},
	{prop: "text-decoration", mark: "strike", keep: true, applies: contains("line-through")},
	{prop: "text-decoration", mark: "underline", keep: true, applies: contains("underline")},
}

// styledProps are the properties the style rules read, in rule order.
var styledProps = []string{"font-weight", "font-style", "text-decoration"}

func contains(s string) func(string) bool {
	return func(v string) bool { return strings.Contains(v, s) }
}

// readStyles applies the style rules to marks, as DOMParser.readStyles.
func readStyles(el *html.Node, marks []Mark) []Mark {
	style := parseStyle(attr(el, "style"))
	if style.count == 0 {
		return marks
	}
	for _, prop := range styledProps {
		value := style.property(prop)
		if value == "" {
			continue
		}
		for _, r := range styleRules {
			if r.prop != prop || (r.value != "" && r.value != value) || (r.applies != nil && !r.applies(value)) {
				continue
			}
			if r.clear {
				marks = withoutMark(marks, r.mark)
			} else {
				marks = append(marks[:len(marks):len(marks)], newMark(r.mark, nil))
			}
			if !r.keep {
				break
			}
		}
	}
	return marks
}

func withoutMark(marks []Mark, typ string) []Mark {
	var out []Mark
	for _, m := range marks {
		if m.Type != typ {
			out = append(out, m)
		}
	}
	return out
}

// unlessStyle is the b and i rule: it applies unless the element's own
// style sets the property to "normal".
func unlessStyle(prop func(inlineStyle) string) func(*html.Node) (map[string]any, bool) {
	return func(el *html.Node) (map[string]any, bool) {
		return nil, prop(parseStyle(attr(el, "style"))) != "normal"
	}
}

func headingAttrs(level int) func(*html.Node) (map[string]any, bool) {
	return func(el *html.Node) (map[string]any, bool) {
		a := map[string]any{"level": float64(level)}
		if v, ok := attrValue(el, "level"); ok {
			a["level"] = v // TipTap reads a "level" attribute over the tag's
		}
		return a, true
	}
}

func linkAttrs(el *html.Node) (map[string]any, bool) {
	href, ok := attrLookup(el, "href")
	if !ok || href == "" || !allowedURI(href) {
		return nil, false
	}
	a := map[string]any{"href": href}
	for _, name := range []string{"target", "rel", "class", "title"} {
		if v, ok := attrValue(el, name); ok {
			a[name] = v
		}
	}
	return a, true
}

// codeBlockAttrs reads language from the first "language-" class of the
// pre's first child element (<pre><code class="language-go">).
func codeBlockAttrs(el *html.Node) (map[string]any, bool) {
	for c := el.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		for _, class := range classList(attr(c, "class")) {
			if lang, ok := strings.CutPrefix(class, "language-"); ok {
				if lang == "" {
					break
				}
				return map[string]any{"language": lang}, true
			}
		}
		break
	}
	return map[string]any{}, true
}

func orderedListAttrs(el *html.Node) (map[string]any, bool) {
	a := map[string]any{"start": float64(1)}
	if s, ok := attrLookup(el, "start"); ok {
		a["start"] = parseInt(s)
	}
	if t := attr(el, "type"); t != "" {
		a["type"] = t
	} else if t := listStyleType(attr(el, "style")); t != "" {
		a["type"] = t
	} else if li := firstDescendant(el, "li"); li != nil {
		if t := listStyleType(attr(li, "style")); t != "" {
			a["type"] = t
		}
	}
	return a, true
}

var listStyleRe = regexp.MustCompile(`(?i)list-style-type\s*:\s*([^;]+)`)

func listStyleType(style string) string {
	m := listStyleRe.FindStringSubmatch(style)
	if m == nil {
		return ""
	}
	switch strings.ToLower(strings.TrimSpace(m[1])) {
	case "upper-roman":
		return "I"
	case "lower-roman":
		return "i"
	case "upper-alpha", "upper-latin":
		return "A"
	case "lower-alpha", "lower-latin":
		return "a"
	}
	return ""
}

// parseInt is JavaScript's parseInt(s, 10); NaN when s has no digits.
func parseInt(s string) float64 {
	s = strings.TrimLeftFunc(s, isJSSpace)
	sign := 1.0
	if s != "" && (s[0] == '+' || s[0] == '-') {
		if s[0] == '-' {
			sign = -1
		}
		s = s[1:]
	}
	end := 0
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	if end == 0 {
		return math.NaN()
	}
	n, _ := strconv.ParseFloat(s[:end], 64)
	return sign * n
}

var numberString = regexp.MustCompile(`^[+-]?(?:\d*\.)?\d+$`)

// fromString is TipTap's conversion of an HTML attribute value: numbers
// and booleans become typed.
func fromString(v string) any {
	switch {
	case numberString.MatchString(v):
		f, _ := strconv.ParseFloat(v, 64)
		return f
	case v == "true":
		return true
	case v == "false":
		return false
	}
	return v
}

// attrValue is an extension attribute without parseHTML: the element's
// attribute through fromString, absent when the element has none.
func attrValue(el *html.Node, name string) (any, bool) {
	v, ok := attrLookup(el, name)
	if !ok {
		return nil, false
	}
	return fromString(v), true
}

func attrLookup(el *html.Node, name string) (string, bool) {
	for _, a := range el.Attr {
		if a.Namespace == "" && a.Key == name {
			return a.Val, true
		}
	}
	return "", false
}

func attr(el *html.Node, name string) string {
	v, _ := attrLookup(el, name)
	return v
}

// classList splits a class attribute as DOMTokenList does: on ASCII
// whitespace, without duplicates.
func classList(s string) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(" \t\n\f\r", r) }) {
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}

func firstDescendant(n *html.Node, tag string) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.Data == tag && c.Namespace == "" {
			return c
		}
		if d := firstDescendant(c, tag); d != nil {
			return d
		}
	}
	return nil
}

// allowedURI is the Link extension's isAllowedUri with no extra protocols:
// the default protocols, or a relative reference.
var allowedURIRe = regexp.MustCompile(`(?i)^(?:(?:http|https|ftp|ftps|mailto|tel|callto|sms|cid|xmpp):|[^a-z]|[a-z0-9+.\-]+(?:[^a-z+.\-:]|$))`)

var uriSpace = regexp.MustCompile("[\u0000-\u0020\u00A0\u1680\u180E\u2000-\u2029\u205F\u3000]")

func allowedURI(uri string) bool {
	return uri == "" || allowedURIRe.MatchString(uriSpace.ReplaceAllString(uri, ""))
}

// isJSSpace is JavaScript's \s.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}
