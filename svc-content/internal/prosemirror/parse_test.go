package prosemirror_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/opencollab/backend/svc-content/internal/prosemirror"
)

func TestParseJSONRefuses(t *testing.T) {
	t.Parallel()
	p := func(inner string) string { return `{"type":"doc","content":[` + inner + `]}` }
	text := `{"type":"text","text":"x"}`
	tests := []struct{ name, in, want string }{
		{"not JSON", `{"type":`, "cannot be read"},
		{"not a doc", `{"type":"paragraph"}`, `"type": "doc"`},
		{"array", `[]`, `"type": "doc"`},
		{"trailing data", `{"type":"doc","content":[{"type":"paragraph"}]} {}`, "after the document"},
		{"empty doc", `{"type":"doc"}`, `content of doc must match "block+"`},
		{"unknown node", p(`{"type":"image"}`), `doc.content[0]: unknown node type "image"`},
		{"unknown mark", p(`{"type":"paragraph","content":[{"type":"text","text":"x","marks":[{"type":"highlight"}]}]}`), `doc.content[0].content[0].marks[0]: unknown mark type "highlight"`},
		{"unknown key", p(`{"type":"paragraph","style":"x"}`), `unknown key "style"`},
		{"unknown attr", p(`{"type":"paragraph","attrs":{"textAlign":"left"}}`), `paragraph has no attribute "textAlign"`},
		{"level string", p(`{"type":"heading","attrs":{"level":"2"}}`), "level: must be an integer from 1 to 6"},
		{"level 7", p(`{"type":"heading","attrs":{"level":7}}`), "level: must be an integer from 1 to 6"},
		{"start fraction", p(`{"type":"orderedList","attrs":{"start":1.5},"content":[{"type":"listItem","content":[{"type":"paragraph"}]}]}`), "start: must be an integer"},
		{"language number", p(`{"type":"codeBlock","attrs":{"language":3}}`), "language: must be a string or null"},
		{"href null", p(`{"type":"paragraph","content":[{"type":"text","text":"x","marks":[{"type":"link","attrs":{"href":null}}]}]}`), "href: must be a string"},
		{"list item without paragraph", p(`{"type":"bulletList","content":[{"type":"listItem","content":[{"type":"heading"}]}]}`), `content of listItem must match "paragraph block*", got [heading]`},
		{"empty list", p(`{"type":"bulletList"}`), `content of bulletList must match "listItem+"`},
		{"text in doc", p(text), `content of doc must match "block+", got [text]`},
		{"paragraph in paragraph", p(`{"type":"paragraph","content":[{"type":"paragraph"}]}`), "content of paragraph"},
		{"hard break in code", p(`{"type":"codeBlock","content":[{"type":"hardBreak"}]}`), `content of codeBlock must match "text*"`},
		{"marks in code block", p(`{"type":"codeBlock","content":[{"type":"text","text":"x","marks":[{"type":"bold"}]}]}`), "mark bold is not allowed in codeBlock"},
		{"mark on block", p(`{"type":"paragraph","marks":[{"type":"bold"}]}`), "mark bold is not allowed in doc"},
		{"code with bold", p(`{"type":"paragraph","content":[{"type":"text","text":"x","marks":[{"type":"bold"},{"type":"code"}]}]}`), "mark code cannot be combined"},
		{"mark twice", p(`{"type":"paragraph","content":[{"type":"text","text":"x","marks":[{"type":"bold"},{"type":"bold"}]}]}`), "mark bold cannot be combined"},
		{"empty text", p(`{"type":"paragraph","content":[{"type":"text","text":""}]}`), "non-empty string text"},
		{"content on leaf", p(`{"type":"horizontalRule","content":[{"type":"paragraph"}]}`), "horizontalRule has no content"},
		{"text on paragraph", p(`{"type":"paragraph","text":"x"}`), "only text nodes have text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := prosemirror.ParseJSON([]byte(tt.in))
			if err == nil || !errors.Is(err, prosemirror.ErrInvalid) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("ParseJSON(%s) = %v, want an ErrInvalid containing %q", tt.in, err, tt.want)
			}
		})
	}
}

func TestParseHTMLRefusesLossyContent(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{`<p>see <img src="a.png"></p>`, "element <img>"},
		{`<table><tr><td>a</td><td>b</td></tr></table>`, "element <table>"},
		{`<p><video src="v.mp4">fallback</video></p>`, "element <video>"},
		{`<iframe src="https://x.example"></iframe>`, "element <iframe>"},
		{`<p>x<svg><circle r="1"/></svg></p>`, "element <svg>"},
		{`<input value="typed">`, "element <input>"},
		{`<title>Doc title</title><p>a</p>`, "element <title>"},
		{`<ol start="x"><li>a</li></ol>`, "<ol start> must be a number"},
		{`<script>only a script</script>`, "no content of the HTML"},
		{`<style>p { color: red }</style>`, "no content of the HTML"},
		// golang.org/x/net/html refuses more than 512 open elements, which
		// also bounds the recursion of the parse.
		{strings.Repeat("<div>", 600) + "deep", "exceeds 512"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			t.Parallel()
			_, err := prosemirror.ParseHTML(tt.in)
			if err == nil || !errors.Is(err, prosemirror.ErrInvalid) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("ParseHTML(%q) = %v, want an ErrInvalid containing %q", tt.in, err, tt.want)
			}
		})
	}
}

// TestParseHTMLShape pins the properties the issue lists, independently
// of TipTap: no whitespace-only text between blocks, loose inline content
// in a paragraph, typed attributes, marks as marks.
func TestParseHTMLShape(t *testing.T) {
	t.Parallel()
	doc, err := prosemirror.ParseHTML("<h2>Title</h2>\n   \n<p>Hello <strong>bold</strong></p>\nloose")
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Content) != 3 {
		t.Fatalf("want heading, paragraph, paragraph; got %d blocks", len(doc.Content))
	}
	h, p, loose := doc.Content[0], doc.Content[1], doc.Content[2]
	if h.Type != "heading" || h.Attrs["level"] != float64(2) {
		t.Errorf("heading = %s %v, want level 2 as a number", h.Type, h.Attrs)
	}
	if p.Type != "paragraph" || len(p.Content) != 2 || p.Content[1].Text != "bold" ||
		len(p.Content[1].Marks) != 1 || p.Content[1].Marks[0].Type != "bold" {
		t.Errorf("paragraph = %+v, want text and bold-marked text", p)
	}
	// ProseMirror keeps the space the line break became: the text is not
	// yet inside a paragraph when its leading whitespace is judged.
	if loose.Type != "paragraph" || len(loose.Content) != 1 || loose.Content[0].Text != " loose" {
		t.Errorf("loose text = %+v, want it wrapped in a paragraph", loose)
	}
}
