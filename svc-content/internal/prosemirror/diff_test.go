package prosemirror_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/opencollab/backend/svc-content/internal/prosemirror"
	"github.com/opencollab/backend/svc-content/internal/prosemirror/tiptaptest"
	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// changes are pairs of HTML documents: a seed and what it becomes.
var changes = []struct{ name, from, to string }{
	{"insert text", `<p>Hello world</p>`, `<p>Hello brave world</p>`},
	{"delete text", `<p>Hello brave world</p><p>x</p>`, `<p>Hello world</p><p>x</p>`},
	{"swap mark", `<p>Hello <strong>bold</strong> text</p>`, `<p>Hello <em>bold</em> text</p>`},
	{"add mark", `<p>plain text here</p>`, `<p>plain <u>text</u> here</p>`},
	{"link attributes", `<p><a href="https://a.example">l</a></p>`, `<p><a href="https://b.example" target="_self">l</a></p>`},
	{"heading level", `<h2>Title</h2><p>x</p>`, `<h3>Title</h3><p>x</p>`},
	{"paragraph to heading", `<p>x</p><p>y</p>`, `<h1>x</h1><p>y</p>`},
	{"insert block", `<p>a</p><p>c</p>`, `<p>a</p><p>b</p><p>c</p>`},
	{"remove block", `<p>a</p><p>b</p><p>c</p>`, `<p>a</p><p>c</p>`},
	{"list item added", `<ul><li>a</li></ul><p>x</p>`, `<ul><li>a</li><li>b</li></ul><p>x</p>`},
	{"list type", `<ul><li>a</li><li>b</li></ul>`, `<ol start="4"><li>a</li><li>b</li></ol>`},
	{"ordered start reset", `<ol start="3"><li>a</li></ol>`, `<ol><li>a</li></ol>`},
	{"code language removed", `<pre><code class="language-go">x := 1</code></pre>`, `<pre><code>x := 2</code></pre>`},
	{"emoji", `<p>a😀b</p>`, `<p>a😃b</p>`},
	{"emptied", `<h1>Gone</h1><p>all <b>of</b> it</p>`, ``},
	{"from empty", ``, `<h2>Title</h2><p>Hello <strong>bold</strong></p>`},
	{"rewrite", `<h2>Title</h2><p>Hello <strong>bold</strong></p>`, `<blockquote><p>q</p></blockquote><ul><li><p>a<br>b</p><ol><li>n</li></ol></li></ul><hr><pre><code class="language-py">print(1)</code></pre>`},
	{"hard breaks", `<p>a<br>b</p>`, `<p>a<br>b<br>c</p>`},
}

// TestWriteFragmentUpdatesEditors writes each seed, then writes the next
// document over it: the update must turn an editor showing the seed into
// one showing the next document, the fragment then being what
// y-prosemirror writes for that document from scratch.
func TestWriteFragmentUpdatesEditors(t *testing.T) {
	t.Parallel()
	var cases []tiptaptest.Case
	want := map[string]*prosemirror.Node{}
	reads := map[string]string{}
	for _, c := range changes {
		from, to := mustHTML(t, c.from), mustHTML(t, c.to)
		s := seed(t, from)
		next, err := s.ydoc.Transact(func(tx *yjs.Tx) error {
			return prosemirror.WriteFragment(tx, s.ydoc.XmlFragment(field), to)
		})
		if err != nil {
			t.Fatalf("%s: WriteFragment over the seed: %v", c.name, err)
		}
		js, err := json.Marshal(to)
		if err != nil {
			t.Fatal(err)
		}
		want[c.name], reads[c.name] = to, readView(t, s.ydoc)
		cases = append(cases, tiptaptest.Case{Name: c.name, HTML: c.from, Update: s.update, Next: next, NextJSON: js})
	}
	for name, r := range tiptaptest.Run(t, cases) {
		if !r.OK {
			t.Errorf("%s: %s", name, strings.Join(r.Problems, "; "))
		}
		if view := editorView(want[name]); r.NextHTML != view || reads[name] != view {
			t.Errorf("%s: editor shows %q, Go reads %q, want %q", name, r.NextHTML, reads[name], view)
		}
	}
}

func mustHTML(t *testing.T, html string) *prosemirror.Node {
	t.Helper()
	doc, err := prosemirror.ParseHTML(html)
	if err != nil {
		t.Fatalf("ParseHTML(%q): %v", html, err)
	}
	return doc
}
