package crdt

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// A client's update is merged; two clients editing the same state both
// survive; a client that holds the old state converges to new data
// without duplicates and keeps its concurrent edit.
func TestBinaryAndDataUpdatesMerge(t *testing.T) {
	svc, _ := newTestService(t)
	ctx := t.Context()
	if err := svc.Add(ctx, "ws1", ed, content("text", `"Hello world"`), ""); err != nil {
		t.Fatal(err)
	}
	state, _ := svc.LoadUpdate(ctx, "ws1", ed)
	for i, s := range []string{"!", "?"} {
		if err := svc.Update(ctx, "ws1", ed, Content{Update: textEdit(t, state, "content", s, uint64(20+i))}, "u"); err != nil {
			t.Fatal(err)
		}
	}
	if got := getData(t, svc, ed); got != `"Hello world!?"` && got != `"Hello world?!"` {
		t.Fatalf("two concurrent updates give %s", got)
	}

	// A client holding the current state edits while REST posts new data.
	base, _ := svc.LoadUpdate(ctx, "ws1", ed)
	client := yjs.NewDoc(77)
	if err := client.ApplyUpdate(base); err != nil {
		t.Fatal(err)
	}
	text := client.Text("content")
	edit, _ := client.Transact(func(tx *yjs.Tx) error { return text.Insert(tx, 0, ">> ", nil) })
	was := text.String()
	newData := strings.Replace(strings.Trim(getData(t, svc, ed), `"`), "world", "there", 1)
	if err := svc.Update(ctx, "ws1", ed, content("text", `"`+newData+`"`), ""); err != nil {
		t.Fatal(err)
	}
	if err := svc.Update(ctx, "ws1", ed, Content{Update: edit}, ""); err != nil {
		t.Fatal(err)
	}
	views, _ := svc.Get(ctx, "ws1", "org1", "doc1", "ed1", Query{Format: FormatYjs, StateVector: client.StateVector()})
	missing, _ := base64.StdEncoding.DecodeString(views[0].Update)
	if err := client.ApplyUpdate(missing); err != nil {
		t.Fatal(err)
	}
	want := ">> " + newData
	if text.String() != want || getData(t, svc, ed) != `"`+want+`"` {
		t.Fatalf("client had %q, now %q; server %s; want %q", was, text.String(), getData(t, svc, ed), want)
	}
	full, _ := base64.StdEncoding.DecodeString(getEditorView(t, svc, Query{Format: FormatYjs}).Update)
	if len(missing) >= len(full) {
		t.Fatalf("the missing part (%d bytes) is not smaller than the whole state (%d)", len(missing), len(full))
	}
}

func getEditorView(t *testing.T, svc *Service, q Query) View {
	t.Helper()
	views, err := svc.Get(t.Context(), "ws1", "org1", "doc1", "ed1", q)
	if err != nil || len(views) != 1 {
		t.Fatalf("get: %v %v", views, err)
	}
	return views[0]
}

// Updates that do not fit the editor are refused and store nothing.
func TestBinaryUpdateRefusals(t *testing.T) {
	svc, _ := newTestService(t)
	ctx := t.Context()
	if err := svc.Add(ctx, "ws1", ed, content("text", `"x"`), ""); err != nil {
		t.Fatal(err)
	}
	state, _ := svc.LoadUpdate(ctx, "ws1", ed)
	otherRoot := textEdit(t, state, "other", "y", 30)
	asMap := func() []byte {
		d := yjs.NewDoc(31)
		_ = d.ApplyUpdate(state)
		m := d.Map("content")
		u, _ := d.Transact(func(tx *yjs.Tx) error { return m.Set(tx, "k", "v") })
		return u
	}()
	for name, c := range map[string]struct {
		update []byte
		inMsg  string
	}{
		"malformed":  {[]byte{1, 200, 3}, "not a Yjs update"},
		"other root": {otherRoot, `root type "other"`},
		"root kind":  {asMap, "map entry"},
	} {
		err := svc.Update(ctx, "ws1", ed, Content{Update: c.update}, "")
		if !api.IsStatus(err, api.InvalidArgument) || !strings.Contains(err.Error(), c.inMsg) {
			t.Errorf("%s: %v, want INVALID_ARGUMENT with %q", name, err, c.inMsg)
		}
	}
	if _, log, _ := svc.store.FindCurrent(ctx, "ws1", ed); len(log) != 0 || getData(t, svc, ed) != `"x"` {
		t.Fatalf("refused updates stored %d entries; data %s", len(log), getData(t, svc, ed))
	}
}

// TipTap editors read as HTML or ProseMirror JSON; ProseMirror JSON seeds
// any key with the TipTap mapping.
func TestTipTapFormats(t *testing.T) {
	svc, _ := newTestService(t)
	ctx := t.Context()
	html := Content{Type: "xml", ContentKey: "default", Data: json.RawMessage(`"<h2 class=\"x\">Title</h2><p>Hello <b>bold</b></p>"`)}
	if err := svc.Add(ctx, "ws1", ed, html, ""); err != nil {
		t.Fatal(err)
	}
	if got := getData(t, svc, ed); got != `"<h2>Title</h2><p>Hello <strong>bold</strong></p>"` {
		t.Fatalf("HTML = %s", got)
	}
	pm := getEditorView(t, svc, Query{Format: FormatProseMirror}).Data
	if !strings.HasPrefix(string(pm), `{"type":"doc","content":[{"type":"heading","attrs":{"level":2}`) {
		t.Fatalf("ProseMirror JSON = %s", pm)
	}
	other := Editor{"org1", "doc1", "pm"}
	if err := svc.Add(ctx, "ws1", other, Content{Type: "xml", ContentKey: "body", Data: pm}, ""); err != nil {
		t.Fatal(err)
	}
	if got := getData(t, svc, other); got != `"<h2>Title</h2><p>Hello <strong>bold</strong></p>"` {
		t.Fatalf("ProseMirror JSON at key body reads %s", got)
	}
	generic := Editor{"org1", "doc1", "generic"}
	if err := svc.Add(ctx, "ws1", generic, Content{Type: "xml", Data: json.RawMessage(`"<x a=\"1\">t</x>"`)}, ""); err != nil {
		t.Fatal(err)
	}
	if err := svc.Update(ctx, "ws1", generic, Content{Type: "xml", Data: pm}, ""); !api.IsStatus(err, api.InvalidArgument) {
		t.Fatalf("ProseMirror JSON over generic XML: %v", err)
	}
	bad := Content{Type: "xml", ContentKey: "default", Data: json.RawMessage(`"<p><img src=x></p>"`)}
	if err := svc.Add(ctx, "ws1", Editor{"org1", "doc1", "img"}, bad, ""); !api.IsStatus(err, api.InvalidArgument) || !strings.Contains(err.Error(), "img") {
		t.Fatalf("unmappable HTML: %v", err)
	}
}

// Documents the previous writer stored (testdata/legacy_records.json, its
// raw records, generated before it was removed) still load: get reads
// their content, updates merge into them, the realtime door loads them.
func TestLegacyRecordsLoad(t *testing.T) {
	svc, _ := newTestService(t)
	ctx := t.Context()
	raw, err := os.ReadFile("testdata/legacy_records.json")
	if err != nil {
		t.Fatal(err)
	}
	var records []json.RawMessage
	if err := json.Unmarshal(raw, &records); err != nil {
		t.Fatal(err)
	}
	coll := svc.store.(*mongoStore).states
	for _, r := range records {
		var doc bson.D
		if err := bson.UnmarshalExtJSON(r, true, &doc); err != nil {
			t.Fatal(err)
		}
		if _, err := coll.InsertOne(ctx, doc); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]string{
		"text":   `"bye 👋, héllo"`,
		"map":    `{"n":1,"s":"x"}`,
		"array":  `[false,1e+100,"z"]`,
		"xml":    `"<div id=\"d\"><p>é<br></br>x</p></div>"`,
		"tiptap": `"<h1>👍🏽</h1><p>plain text</p>"`,
	}
	for id, data := range want {
		e := Editor{"org1", "doc1", id}
		if got := getData(t, svc, e); got != data {
			t.Errorf("legacy %s reads %s, want %s", id, got, data)
		}
		if u, err := svc.LoadUpdate(ctx, "ws1", e); err != nil || len(u) == 0 {
			t.Errorf("legacy %s: LoadUpdate %d bytes, %v", id, len(u), err)
		}
	}
	if err := svc.Update(ctx, "ws1", Editor{"org1", "doc1", "text"}, content("text", `"bye 👋, world"`), ""); err != nil {
		t.Fatal(err)
	}
	if err := svc.Compact(ctx, "ws1", Editor{"org1", "doc1", "text"}); err != nil {
		t.Fatal(err)
	}
	if got := getData(t, svc, Editor{"org1", "doc1", "text"}); got != `"bye 👋, world"` {
		t.Fatalf("legacy text after update and compaction: %s", got)
	}
}
