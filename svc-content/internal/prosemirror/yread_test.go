package prosemirror_test

import (
	"errors"
	"testing"

	"github.com/opencollab/backend/svc-content/internal/prosemirror"
	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// build writes a fragment by hand, as a peer other than y-prosemirror
// might, and reads it back.
func build(t *testing.T, nodes ...any) (*prosemirror.Node, error) {
	t.Helper()
	ydoc := yjs.NewDoc(7)
	if _, err := ydoc.Transact(func(tx *yjs.Tx) error {
		return ydoc.XmlFragment(field).Insert(tx, 0, nodes...)
	}); err != nil {
		t.Fatal(err)
	}
	return prosemirror.ReadFragment(ydoc.XmlFragment(field))
}

func text(runs ...yjs.Delta) *yjs.XmlText { return yjs.NewXmlText(runs...) }

func run(s string, attrs map[string]any) yjs.Delta {
	if attrs == nil {
		attrs = map[string]any{}
	}
	return yjs.Delta{Insert: s, Attributes: attrs}
}

// TestReadFragmentAsEditorsDo pins what y-prosemirror's
// createNodeFromYElement does with fragments it did not write: unknown
// elements and texts with unknown marks are dropped (an editor deletes
// them), attributes keep the type they were stored with (a string level
// renders as h1, as in TipTap), missing ones take defaults, hashed mark
// names are marks.
func TestReadFragmentAsEditorsDo(t *testing.T) {
	t.Parallel()
	p := func(children ...any) *yjs.XmlElement { return yjs.NewXmlElement("paragraph", nil, children...) }
	tests := []struct {
		name  string
		nodes []any
		html  string
	}{
		{"unknown element dropped", []any{p(text(run("a", nil))), yjs.NewXmlElement("image", map[string]any{"src": "x"}), p(text(run("b", nil)))}, "<p>a</p><p>b</p>"},
		{"unknown inline element dropped", []any{p(text(run("a", nil)), yjs.NewXmlElement("mention", nil), text(run("b", nil)))}, "<p>ab</p>"},
		{"unknown mark drops the text", []any{p(text(run("keep", nil)), yjs.NewXmlElement("hardBreak", nil), text(run("x", map[string]any{"highlight": map[string]any{}})))}, "<p>keep<br></p>"},
		{"string level", []any{yjs.NewXmlElement("heading", map[string]any{"level": "2"}, text(run("h", nil)))}, "<h1>h</h1>"},
		{"number level", []any{yjs.NewXmlElement("heading", map[string]any{"level": 3}, text(run("h", nil)))}, "<h3>h</h3>"},
		{"defaults", []any{yjs.NewXmlElement("orderedList", nil, yjs.NewXmlElement("listItem", nil, p()))}, "<ol><li><p></p></li></ol>"},
		{"hashed mark", []any{p(text(run("b", map[string]any{"bold--AAAAAAAA": map[string]any{}})))}, "<p><strong>b</strong></p>"},
		{"link defaults", []any{p(text(run("l", map[string]any{"link": map[string]any{"href": "https://x.example"}})))}, `<p><a target="_blank" rel="noopener noreferrer nofollow" href="https://x.example">l</a></p>`},
		{"split texts join", []any{p(text(run("a", nil)), text(run("b", nil)))}, "<p>ab</p>"},
		{"empty", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := build(t, tt.nodes...)
			if err != nil {
				t.Fatal(err)
			}
			if got := prosemirror.RenderHTML(doc); got != tt.html {
				t.Fatalf("RenderHTML(ReadFragment) = %q, want %q", got, tt.html)
			}
		})
	}
}

func TestReadFragmentRefusesTopLevelText(t *testing.T) {
	t.Parallel()
	_, err := build(t, text(run("loose", nil)))
	if !errors.Is(err, prosemirror.ErrInvalid) {
		t.Fatalf("ReadFragment of top-level text = %v, want ErrInvalid", err)
	}
}
