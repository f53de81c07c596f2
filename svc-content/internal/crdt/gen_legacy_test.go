package crdt

import (
	"encoding/json"
	"os"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// TestGenerateLegacyFixture records what the old writer stored (run once,
// before legacyyjs was deleted).
func TestGenerateLegacyFixture(t *testing.T) {
	if os.Getenv("GEN_LEGACY") == "" {
		t.Skip()
	}
	svc, _ := newTestService(t)
	ctx := t.Context()
	steps := []struct {
		editor, typ, key string
		data             []string
	}{
		{"text", "text", "content", []string{`"héllo 中文 👍🏽"`, `"bye 👋, héllo"`}},
		{"map", "map", "content", []string{`{"n":-12,"big":4294967296,"f":0.25,"nested":{"x":[null,true]},"é":"中文"}`, `{"n":1,"s":"x"}`}},
		{"array", "array", "items", []string{`[1,"👍🏽",{"a":[]}]`, `[false,1e100,"z"]`}},
		{"xml", "xml", "content", []string{`"<p class=\"x\">a <b>b</b></p>"`, `"<div id=\"d\"><p>é<br>x</p></div>"`}},
		{"tiptap", "xml", "default", []string{`"<h2>Title</h2><p>Hello</p>"`, `"<h1>👍🏽</h1><p>plain text</p>"`}},
	}
	for _, s := range steps {
		e := Editor{"org1", "doc1", s.editor}
		for i, d := range s.data {
			c := Content{Type: s.typ, ContentKey: s.key, Data: json.RawMessage(d)}
			var err error
			if i == 0 {
				err = svc.Add(ctx, "ws1", e, c, "user1")
			} else {
				err = svc.Update(ctx, "ws1", e, c, "user2")
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	cur, err := svc.store.(*mongoStore).coll.Find(ctx, bson.D{}, options.Find().SetSort(bson.D{{Key: "editorId", Value: 1}, {Key: "version", Value: 1}}))
	if err != nil {
		t.Fatal(err)
	}
	var docs []bson.D
	if err := cur.All(ctx, &docs); err != nil {
		t.Fatal(err)
	}
	var out []json.RawMessage
	for _, d := range docs {
		var kept bson.D
		for _, e := range d {
			if e.Key != "_id" {
				kept = append(kept, e)
			}
		}
		b, err := bson.MarshalExtJSON(kept, true, false)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	b, _ := json.MarshalIndent(out, "", " ")
	if err := os.WriteFile("testdata/legacy_records.json", append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}
