package prosemirror

import (
	"math"
	"strconv"
	"strings"

	"github.com/opencollab/backend/svc-content/internal/yjs/lib0"
)

// RenderHTML renders a document as TipTap 3's editor.getHTML() does for
// StarterKit with default options: each extension's renderHTML (heading
// levels outside 1-6 render as h1, an ordered list shows start and type
// only when they differ from 1, a code block's language becomes the class
// "language-x" of its <code>, a link gets target, rel, class, href, title
// in that order and an empty href when its URL is not allowed), marks
// nested by rank as ProseMirror's DOMSerializer nests them, serialised as
// innerHTML (text escapes &, <, >, U+00A0; attributes &, ", U+00A0). A
// document with no content renders as "" and an empty paragraph as <p></p>.
func RenderHTML(doc *Node) string {
	var b strings.Builder
	renderFragment(&b, doc.Content)
	return b.String()
}

type openMark struct {
	mark Mark
	end  string
}

func renderFragment(b *strings.Builder, nodes []*Node) {
	var active []openMark
	for _, n := range nodes {
		keep := 0
		for keep < len(active) && keep < len(n.Marks) && markEq(n.Marks[keep], active[keep].mark) {
			keep++
		}
		for len(active) > keep {
			b.WriteString(active[len(active)-1].end)
			active = active[:len(active)-1]
		}
		for _, m := range n.Marks[keep:] {
			tag, attrs := markDOM(m)
			writeStart(b, tag, attrs)
			active = append(active, openMark{mark: m, end: "</" + tag + ">"})
		}
		renderNode(b, n)
	}
	for i := len(active) - 1; i >= 0; i-- {
		b.WriteString(active[i].end)
	}
}

type htmlAttr struct {
	name  string
	value any // nil: not rendered
}

func renderNode(b *strings.Builder, n *Node) {
	switch n.Type {
	case "text":
		b.WriteString(escapeText(n.Text))
		return
	case "hardBreak":
		b.WriteString("<br>")
		return
	case "horizontalRule":
		b.WriteString("<hr>")
		return
	case "codeBlock":
		b.WriteString("<pre>")
		var class any
		if lang := n.Attrs["language"]; truthy(lang) {
			class = "language-" + attrString(lang)
		}
		writeStart(b, "code", []htmlAttr{{"class", class}})
		renderFragment(b, n.Content)
		b.WriteString("</code></pre>")
		return
	}
	tag, attrs := nodeDOM(n)
	writeStart(b, tag, attrs)
	renderFragment(b, n.Content)
	b.WriteString("</" + tag + ">")
}

func nodeDOM(n *Node) (string, []htmlAttr) {
	switch n.Type {
	case "paragraph":
		return "p", nil
	case "heading":
		level := 1
		if f, ok := n.Attrs["level"].(float64); ok && f >= 1 && f <= 6 && f == math.Trunc(f) {
			level = int(f)
		}
		return "h" + strconv.Itoa(level), nil
	case "blockquote":
		return "blockquote", nil
	case "bulletList":
		return "ul", nil
	case "listItem":
		return "li", nil
	case "orderedList":
		var attrs []htmlAttr
		if start := n.Attrs["start"]; start != float64(1) {
			attrs = append(attrs, htmlAttr{"start", start})
		}
		if typ := n.Attrs["type"]; truthy(typ) && typ != "1" {
			attrs = append(attrs, htmlAttr{"type", typ})
		}
		return "ol", attrs
	}
	return n.Type, nil // not a StarterKit node; ParseJSON refuses these
}

func markDOM(m Mark) (string, []htmlAttr) {
	switch m.Type {
	case "link":
		href := m.Attrs["href"]
		if s, ok := href.(string); ok && !allowedURI(s) {
			href = ""
		}
		return "a", []htmlAttr{{"target", m.Attrs["target"]}, {"rel", m.Attrs["rel"]},
			{"class", m.Attrs["class"]}, {"href", href}, {"title", m.Attrs["title"]}}
	case "bold":
		return "strong", nil
	case "italic":
		return "em", nil
	case "strike":
		return "s", nil
	case "underline":
		return "u", nil
	}
	return m.Type, nil // code
}

func writeStart(b *strings.Builder, tag string, attrs []htmlAttr) {
	b.WriteString("<" + tag)
	for _, a := range attrs {
		if a.value == nil {
			continue
		}
		b.WriteString(" " + a.name + `="` + escapeAttr(attrString(a.value)) + `"`)
	}
	b.WriteString(">")
}

// truthy is JavaScript truthiness of an attribute value.
func truthy(v any) bool {
	switch t := v.(type) {
	case nil:
		return false
	case string:
		return t != ""
	case float64:
		return t != 0 && !math.IsNaN(t)
	case bool:
		return t
	}
	return true
}

// attrString is String(v) in JavaScript, as setAttribute converts values.
func attrString(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case float64:
		return lib0.FormatNumber(t)
	case bool:
		return strconv.FormatBool(t)
	}
	return ""
}

var (
	textEscaper = strings.NewReplacer("&", "&amp;", "\u00a0", "&nbsp;", "<", "&lt;", ">", "&gt;")
	attrEscaper = strings.NewReplacer("&", "&amp;", "\u00a0", "&nbsp;", `"`, "&quot;")
)

func escapeText(s string) string { return textEscaper.Replace(s) }
func escapeAttr(s string) string { return attrEscaper.Replace(s) }
