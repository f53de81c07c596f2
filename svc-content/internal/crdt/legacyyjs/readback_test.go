package legacyyjs_test

import (
	"encoding/json"
	"testing"

	yjs "github.com/opencollab/backend/svc-content/internal/crdt/legacyyjs"
	"github.com/opencollab/backend/svc-content/internal/yjs/yjstest"
)

// Every kind of content, and documents whose content was replaced, read
// back by the real yjs library exactly as posted.
func TestUpdatesReadBackWithYjs(t *testing.T) {
	var cases []yjstest.Case
	add := func(name string, kind yjs.Kind, key string, versions ...string) {
		t.Helper()
		d := yjs.NewDoc(0x9abcdef0, key, kind)
		c := yjstest.Case{Name: name, Type: string(kind), ContentKey: key}
		for _, v := range versions {
			update, expected := setVersion(t, d, v)
			c.Updates = append(c.Updates, update)
			c.Expected = expected
		}
		cases = append(cases, c)
	}

	text := `"Hello, wörld — é 中文 👍🏽 🇫🇷\nline 2\ttab"`
	add("text", yjs.KindText, "content", text)
	add("text empty", yjs.KindText, "content", `""`)
	add("text replaced", yjs.KindText, "content", text, `"second 👍"`, `""`, `"fourth ✓"`)

	object := `{"title":"Ünïcödé 中文 👍🏽","count":42,"negative":-17,"zero":0,"negZero":-0,
		"maxInt":2147483647,"minInt":-2147483647,"past31":2147483648,"below31":-2147483648,
		"safe":9007199254740991,"big":12345678901234567890,"huge":1e300,"tiny":1.5e-7,
		"float32":1.5,"float64":0.1,"negFloat":-2.75,"yes":true,"no":false,"nothing":null,
		"nested":{"list":[1,"two",{"three":[3.5,null]}],"empty":{},"none":[]},
		"clé":"valeur","中文":"键","👍🏽":"emoji key"}`
	add("map", yjs.KindMap, "content", object)
	add("map empty", yjs.KindMap, "content", `{}`)
	add("map replaced", yjs.KindMap, "content", `{"a":1,"b":{"x":[1]},"c":"3"}`, `{"b":2,"d":"new"}`, `{"a":"back","b":2}`)

	array := `[1,-1,0,-0,2147483647,2147483648,-2147483648,9007199254740993,1e300,0.1,1.5,true,false,null,
		"é 中文 👍🏽",{"k":"v","n":{"deep":[[]]}},[1,[2,[3]]],[],{}]`
	add("array", yjs.KindArray, "content", array)
	add("array empty", yjs.KindArray, "content", `[]`)
	add("array replaced", yjs.KindArray, "content", array, `[]`, `["x",{"y":1}]`)

	html := `<h1 class="title" id="t">Héllo <em>中文</em> 👍🏽</h1>
<p>Text with <a href="https://example.com/?a=1&amp;b=2" target="_blank">a link</a>, <strong>bold <em>nested</em></strong><br>and &lt;escaped&gt; &amp; entities&nbsp;!</p>
<ul data-type="bulletList"><li><p>one</p></li><li><p>two 🇫🇷</p></li></ul><img src="x.png" alt="">`
	add("xml", yjs.KindXML, "default", `"`+jsonEscape(html)+`"`)
	add("xml text only", yjs.KindXML, "content", `"plain text 👍"`)
	add("xml empty", yjs.KindXML, "content", `""`)
	add("xml replaced", yjs.KindXML, "default", `"<p>one</p><p>two</p>"`, `"<h2 a=\"1\">new</h2>tail"`, `"<p>third <b>x</b></p>"`)

	yjstest.Check(t, cases)
}

// setVersion sets the content posted as JSON v and returns the full update
// and what yjs must read back.
func setVersion(t *testing.T, d *yjs.Doc, v string) ([]byte, any) {
	t.Helper()
	parsed, err := yjs.ParseJSON([]byte(v))
	if err != nil {
		t.Fatalf("parse %s: %v", v, err)
	}
	var update []byte
	var expected any = json.RawMessage(v)
	switch d.Kind {
	case yjs.KindText:
		update, err = d.SetText(parsed.(string))
	case yjs.KindMap:
		update, err = d.SetMap(parsed.(yjs.Object))
	case yjs.KindArray:
		update, err = d.SetArray(parsed.([]any))
	case yjs.KindXML:
		var nodes []yjs.XMLNode
		if nodes, err = yjs.ParseHTML(parsed.(string)); err == nil {
			update, err = d.SetXML(nodes)
			expected = yjs.XMLString(nodes)
		}
	}
	if err != nil {
		t.Fatalf("set %s: %v", v, err)
	}
	return update, expected
}

func jsonEscape(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}
