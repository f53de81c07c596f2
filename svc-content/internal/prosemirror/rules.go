package prosemirror

import (
	"regexp"
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
