package genericxml_test

import (
	"testing"

	"github.com/opencollab/backend/svc-content/internal/genericxml"
	"github.com/opencollab/backend/svc-content/internal/yjs"
	"github.com/opencollab/backend/svc-content/internal/yjs/yjstest"
)

func TestParseRendersAsYjs(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"paragraphs", `<p>Hello <b>world</b></p><p>2</p>`, `<p>Hello <b>world</b></p><p>2</p>`},
		{"attributes sorted", `<a href="x" class="c" Data-X='1'>l</a>`, `<a Data-X="1" class="c" href="x">l</a>`},
		{"name lower-cased", `<DIV>x</DIV>`, `<div>x</div>`},
		{"void elements", `a<br>b<img src="i.png"><hr/>c`, `a<br></br>b<img src="i.png"></img><hr></hr>c`},
		{"entities decoded, not re-escaped", `<p>&lt;tag&gt; &amp; &nbsp;&eacute;&#x1F44D;</p>`, "<p><tag> & \u00a0é👍</p>"},
		{"unknown entity kept", `<p>a &bogus; b</p>`, `<p>a &bogus; b</p>`},
		{"whitespace kept", "<ul>\n  <li> a </li>\n</ul>", "<ul>\n  <li> a </li>\n</ul>"},
		{"comments, doctype and PIs dropped", `<!DOCTYPE html><?xml version="1.0"?><p>a<!-- c -->b</p>`, `<p>ab</p>`},
		{"unclosed closes at end", `<p><em>x`, `<p><em>x</em></p>`},
		{"outer end tag closes inner", `<div><span>x</div>y`, `<div><span>x</span></div>y`},
		{"stray end tag ignored", `a</p>b`, `ab`},
		{"attribute without value", `<input disabled>`, `<input disabled="disabled"></input>`},
		{"first repeated attribute wins", `<p a="1" a="2">x</p>`, `<p a="1">x</p>`},
		{"prefixes kept", `<svg xmlns:xl="u"><use xl:href="#a"/></svg>`, `<svg xmlns:xl="u"><use xl:href="#a"></use></svg>`},
		{"cdata is text", `<p><![CDATA[<x>]]></p>`, `<p><x></p>`},
		{"plain text", `just text 中文`, `just text 中文`},
		{"empty", ``, ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			nodes, err := genericxml.Parse(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := genericxml.String(nodes); got != tt.want {
				t.Fatalf("String(Parse(%q))\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseRefusesNonMarkup(t *testing.T) {
	t.Parallel()
	for _, in := range []string{`a < b`, `<p x="1></p>`} {
		if _, err := genericxml.Parse(in); err == nil {
			t.Errorf("Parse(%q): want error", in)
		}
	}
}

// TestWriteReadsBackWithYjs writes documents (and replacements of them)
// with the engine; stock yjs must read each fragment as String renders the
// nodes, and a peer that applied every version must converge to the last.
func TestWriteReadsBackWithYjs(t *testing.T) {
	t.Parallel()
	docs := map[string][]string{
		"html": {`<h1 class="title" id="t">Héllo <em>中文</em> 👍🏽</h1>
<p>Text with <a href="https://example.com/?a=1&amp;b=2" target="_blank">a link</a><br>&lt;escaped&gt;&nbsp;!</p><img src="x.png" alt="">`},
		"text only": {`plain text 👍`},
		"empty":     {``},
		"replaced":  {`<p>one</p><p>two</p><p>three</p>`, `<p>one</p><h2 a="1">new</h2><p>three</p>`, `tail`, `<p>one</p>`},
		"svg":       {`<svg:svg xmlns:svg="u"><svg:rect width="1"/></svg:svg>`},
	}
	var cases []yjstest.Case
	for name, versions := range docs {
		ydoc := yjs.NewDoc(42)
		c := yjstest.Case{Name: name, Type: "xml", ContentKey: "notes"}
		for _, v := range versions {
			nodes, err := genericxml.Parse(v)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := ydoc.Transact(func(tx *yjs.Tx) error {
				return genericxml.Write(tx, ydoc.XmlFragment("notes"), nodes)
			}); err != nil {
				t.Fatalf("%s: Write: %v", name, err)
			}
			update, err := ydoc.EncodeStateAsUpdate(nil)
			if err != nil {
				t.Fatal(err)
			}
			c.Updates, c.Expected = append(c.Updates, update), genericxml.String(nodes)
		}
		cases = append(cases, c)
	}
	yjstest.Check(t, cases)
}
