package legacyyjs

import "testing"

func TestParseHTMLRendersAsYjs(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
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
		{"prefixes kept", `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xl="u"><use xl:href="#a"/></svg>`, `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xl="u"><use xl:href="#a"></use></svg>`},
		{"cdata is text", `<p><![CDATA[<x>]]></p>`, `<p><x></p>`},
		{"plain text", `just text 中文`, `just text 中文`},
		{"empty", ``, ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nodes, err := ParseHTML(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := XMLString(nodes); got != tt.want {
				t.Fatalf("XMLString(ParseHTML(%q))\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseHTMLRefusesNonMarkup(t *testing.T) {
	for _, in := range []string{`a < b`, `<p x="1></p>`} {
		if _, err := ParseHTML(in); err == nil {
			t.Errorf("ParseHTML(%q): want error", in)
		}
	}
}

func TestCompareUTF16(t *testing.T) {
	// U+1F600 sorts after U+FF5E in code point (UTF-8) order but before it
	// in UTF-16, where it is a surrogate pair starting 0xD83D.
	if compareUTF16("\U0001F600", "\uFF5E") >= 0 {
		t.Fatal("surrogate pair must sort before U+FF5E as in JavaScript")
	}
	if compareUTF16("a", "ab") >= 0 || compareUTF16("b", "a") <= 0 || compareUTF16("x", "x") != 0 {
		t.Fatal("basic order wrong")
	}
}
