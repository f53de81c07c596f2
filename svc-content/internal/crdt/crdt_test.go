package crdt

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/events/eventstest"
	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-content/internal/genericxml"
	"github.com/opencollab/backend/svc-content/internal/yjs/yjstest"
)

func newTestService(t *testing.T) (*Service, *eventstest.Recorder) {
	t.Helper()
	pub := &eventstest.Recorder{}
	svc := NewService(testenv.Mongo(t), pub, Settings{})
	svc.now = func() time.Time { return time.Date(2025, 3, 4, 5, 6, 7, 891234567, time.UTC) }
	if err := svc.EnsureIndexes(t.Context()); err != nil {
		t.Fatal(err)
	}
	return svc, pub
}

var ed = Editor{OrganizationID: "org1", DocumentID: "doc1", EditorID: "ed1"}

func content(typ, data string) Content { return Content{Type: typ, Data: json.RawMessage(data)} }

func TestAddGetUpdate(t *testing.T) {
	svc, pub := newTestService(t)
	ctx := t.Context()
	if err := svc.Add(ctx, "ws1", ed, content("map", `{"a": 1, "b.c": [true]}`), "user1"); err != nil {
		t.Fatal(err)
	}
	views, err := svc.Get(ctx, "ws1", "org1", "doc1", "ed1", Query{})
	if err != nil {
		t.Fatal(err)
	}
	if len(views) != 1 {
		t.Fatalf("got %d views", len(views))
	}
	v := views[0]
	if v.ID != "ed1" || string(v.Data) != `{"a":1,"b.c":[true]}` || v.Type != "map" || v.ContentKey != "content" ||
		v.LastUpdate != "2025-03-04T05:06:07.891Z" || v.LastUpdatedBy == nil || *v.LastUpdatedBy != "user1" || v.SessionID != nil {
		t.Fatalf("view = %+v", v)
	}
	if _, err := base64.StdEncoding.DecodeString(v.Update); err != nil || v.Update == "" {
		t.Fatalf("update %q is not base64: %v", v.Update, err)
	}

	if err := svc.Update(ctx, "ws1", ed, content("map", `{"z": "new"}`), ""); err != nil {
		t.Fatal(err)
	}
	views, _ = svc.Get(ctx, "ws1", "org1", "doc1", "ed1", Query{})
	if string(views[0].Data) != `{"z":"new"}` || views[0].LastUpdatedBy != nil || views[0].Update == v.Update {
		t.Fatalf("after update: %+v", views[0])
	}

	evs := pub.Events()
	if len(evs) != 2 || evs[0].Type != EventAdd || evs[1].Type != EventUpdate {
		t.Fatalf("events = %+v", evs)
	}
	var data map[string]any
	if err := json.Unmarshal(evs[0].Data, &data); err != nil {
		t.Fatal(err)
	}
	want := `map[data:map[a:1 b.c:[true]] id:ed1 lastUpdate:2025-03-04T05:06:07.891Z lastUpdatedBy:user1 sessionId:<nil>]`
	if got := fmt.Sprint(data); got != want {
		t.Fatalf("event data = %s, want %s", got, want)
	}
	if e := evs[0]; e.WorkspaceID != "ws1" || e.OrganizationID != "org1" || e.DocumentID != "doc1" || e.Source != "content" {
		t.Fatalf("event envelope = %+v", e)
	}
}

func TestErrors(t *testing.T) {
	svc, pub := newTestService(t)
	ctx := t.Context()
	if err := svc.Add(ctx, "ws1", ed, Content{Type: "xml", ContentKey: "default", Data: json.RawMessage(`"<p>x</p>"`)}, ""); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		call func() error
		want api.Status
	}{
		{"add twice", func() error { return svc.Add(ctx, "ws1", ed, content("text", `"x"`), "") }, api.AlreadyExists},
		{"add text with object", func() error { return svc.Add(ctx, "ws1", Editor{"o", "d", "e"}, content("text", `{}`), "") }, api.InvalidArgument},
		{"add map with array", func() error { return svc.Add(ctx, "ws1", Editor{"o", "d", "e"}, content("map", `[]`), "") }, api.InvalidArgument},
		{"add array with null", func() error { return svc.Add(ctx, "ws1", Editor{"o", "d", "e"}, content("array", `null`), "") }, api.InvalidArgument},
		{"add xml with number", func() error { return svc.Add(ctx, "ws1", Editor{"o", "d", "e"}, content("xml", `1`), "") }, api.InvalidArgument},
		{"add bad xml", func() error { return svc.Add(ctx, "ws1", Editor{"o", "d", "e"}, content("xml", `"a < b"`), "") }, api.InvalidArgument},
		{"add unknown type", func() error { return svc.Add(ctx, "ws1", Editor{"o", "d", "e"}, content("tree", `"x"`), "") }, api.InvalidArgument},
		{"add without editor", func() error { return svc.Add(ctx, "ws1", Editor{"o", "d", ""}, content("text", `"x"`), "") }, api.InvalidArgument},
		{"add dollar key", func() error {
			return svc.Add(ctx, "ws1", Editor{"o", "d", "e"}, Content{Type: "text", ContentKey: "$x", Data: json.RawMessage(`"x"`)}, "")
		}, api.InvalidArgument},
		{"update missing", func() error { return svc.Update(ctx, "ws1", Editor{"o", "d", "e"}, content("text", `"x"`), "") }, api.NotFound},
		{"update other workspace", func() error { return svc.Update(ctx, "ws2", ed, content("xml", `"<p/>"`), "") }, api.NotFound},
		{"update other type", func() error { return svc.Update(ctx, "ws1", ed, content("text", `"x"`), "") }, api.InvalidArgument},
		{"update other key", func() error {
			return svc.Update(ctx, "ws1", ed, Content{Type: "xml", ContentKey: "content", Data: json.RawMessage(`"x"`)}, "")
		}, api.InvalidArgument},
		{"update data mismatch", func() error { return svc.Update(ctx, "ws1", ed, content("xml", `["x"]`), "") }, api.InvalidArgument},
		{"update malformed", func() error { return svc.Update(ctx, "ws1", ed, Content{Update: []byte{1, 2, 3}}, "") }, api.InvalidArgument},
		{"update data and update", func() error {
			return svc.Update(ctx, "ws1", ed, Content{Type: "xml", Data: json.RawMessage(`"<p>y</p>"`), Update: []byte{0, 0}}, "")
		}, api.InvalidArgument},
		{"update nothing", func() error { return svc.Update(ctx, "ws1", ed, Content{Type: "xml"}, "") }, api.InvalidArgument},
		{"update unknown editor", func() error { return svc.Update(ctx, "ws1", Editor{"o", "d", "e"}, Content{Update: []byte{0, 0}}, "") }, api.NotFound},
		{"get bad format", func() error { _, err := svc.Get(ctx, "ws1", "org1", "doc1", "", Query{Format: "html"}); return err }, api.InvalidArgument},
		{"get state vector without yjs", func() error {
			_, err := svc.Get(ctx, "ws1", "org1", "doc1", "", Query{StateVector: []byte{0}})
			return err
		}, api.InvalidArgument},
		{"get bad state vector", func() error {
			_, err := svc.Get(ctx, "ws1", "org1", "doc1", "", Query{Format: FormatYjs, StateVector: []byte{5, 1}})
			return err
		}, api.InvalidArgument},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.call(); !api.IsStatus(err, tt.want) {
				t.Fatalf("err = %v, want %s", err, tt.want)
			}
		})
	}
	views, _ := svc.Get(ctx, "ws1", "org1", "doc1", "", Query{})
	if len(views) != 1 || string(views[0].Data) != `"<p>x</p>"` || views[0].ContentKey != "default" {
		t.Fatalf("errors changed the data: %+v", views)
	}
	for _, org := range []string{"o"} {
		if v, _ := svc.Get(ctx, "ws1", org, "d", "", Query{}); len(v) != 0 {
			t.Fatalf("failed add wrote %+v", v)
		}
	}
	if evs := pub.Events(); len(evs) != 1 {
		t.Fatalf("failed calls published: %+v", evs)
	}
}

func TestGetScopes(t *testing.T) {
	svc, _ := newTestService(t)
	ctx := t.Context()
	for _, e := range []Editor{{"org1", "doc1", "b"}, {"org1", "doc1", "a"}, {"org1", "doc2", "c"}} {
		if err := svc.Add(ctx, "ws1", e, content("text", `"`+e.EditorID+`"`), ""); err != nil {
			t.Fatal(err)
		}
	}
	all, _ := svc.Get(ctx, "ws1", "org1", "doc1", "", Query{})
	if len(all) != 2 || all[0].ID != "a" || all[1].ID != "b" {
		t.Fatalf("document editors = %+v", all)
	}
	if none, err := svc.Get(ctx, "ws1", "org1", "doc1", "zzz", Query{}); err != nil || none == nil || len(none) != 0 {
		t.Fatalf("unknown editor = %+v, %v", none, err)
	}
	if other, _ := svc.Get(ctx, "ws2", "org1", "doc1", "", Query{}); len(other) != 0 {
		t.Fatalf("other workspace sees %+v", other)
	}
}

func TestMigrateAndHasData(t *testing.T) {
	svc, _ := newTestService(t)
	ctx := t.Context()
	for _, id := range []string{"a", "b"} {
		if err := svc.Add(ctx, "ws1", Editor{"org1", "old", id}, content("text", `"x"`), ""); err != nil {
			t.Fatal(err)
		}
	}
	if has, err := svc.HasData(ctx, "ws1", "org1", "new"); err != nil || has {
		t.Fatalf("HasData(new) before = %v, %v", has, err)
	}
	moved, err := svc.MigrateDocument(ctx, "ws1", "org1", "old", "new")
	if err != nil || moved != 2 {
		t.Fatalf("moved %d, %v", moved, err)
	}
	if moved, err := svc.MigrateDocument(ctx, "ws1", "org1", "old", "new"); err != nil || moved != 0 {
		t.Fatalf("second run moved %d, %v", moved, err)
	}
	if has, _ := svc.HasData(ctx, "ws1", "org1", "new"); !has {
		t.Fatal("HasData(new) = false after migration")
	}
	if has, _ := svc.HasData(ctx, "ws1", "org1", "old"); has {
		t.Fatal("HasData(old) = true after migration")
	}
	if err := svc.Update(ctx, "ws1", Editor{"org1", "new", "a"}, content("text", `"y"`), ""); err != nil {
		t.Fatalf("update after migration: %v", err)
	}
	// The old id is free again: its editors' keys moved with the data.
	if err := svc.Add(ctx, "ws1", Editor{"org1", "old", "a"}, content("text", `"again"`), ""); err != nil {
		t.Fatalf("add at the old document id: %v", err)
	}
	if got, old := getData(t, svc, Editor{"org1", "new", "a"}), getData(t, svc, Editor{"org1", "old", "a"}); got != `"y"` || old != `"again"` {
		t.Fatalf("after re-adding the old id: new %s, old %s", got, old)
	}
}

// Concurrent updates all land: each is logged after the state, none
// replaces another.
func TestConcurrentUpdates(t *testing.T) {
	svc, _ := newTestService(t)
	ctx := t.Context()
	if err := svc.Add(ctx, "ws1", ed, content("map", `{}`), ""); err != nil {
		t.Fatal(err)
	}
	const writers = 8
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for i := range writers {
		wg.Go(func() {
			// each writer sets its own key over the empty map it read
			errs <- svc.Update(ctx, "ws1", ed, content("map", fmt.Sprintf(`{"k%d":%d}`, i, i)), "")
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	views, err := svc.Get(ctx, "ws1", "org1", "doc1", "ed1", Query{})
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]int
	if err := json.Unmarshal(views[0].Data, &got); err != nil || len(got) == 0 {
		t.Fatalf("data %s: %v", views[0].Data, err)
	}
	// Writers that read the empty map delete nothing they did not see;
	// a writer that read another's key deletes it (its data replaces the
	// content), so at least the last writer's key is there and no key is
	// there twice.
	for k, v := range got {
		if k != fmt.Sprintf("k%d", v) {
			t.Fatalf("data %s", views[0].Data)
		}
	}
}

// What add and update store reads back with the real yjs library.
func TestStoredUpdatesReadBackWithYjs(t *testing.T) {
	svc, _ := newTestService(t)
	ctx := t.Context()
	type step struct{ typ, data string }
	docs := []struct {
		name, key string
		steps     []step
	}{
		{"text", "content", []step{{"text", `"héllo 中文 👍🏽"`}, {"text", `"bye 👋"`}}},
		{"map", "content", []step{{"map", `{"n":-12,"big":4294967296,"f":0.25,"nested":{"x":[null,true]},"é":"中文"}`}, {"map", `{"n":1}`}}},
		{"array", "content", []step{{"array", `[1,"👍🏽",{"a":[]}]`}, {"array", `[false,1e100]`}}},
		{"xml", "content", []step{{"xml", `"<p class=\"x\">a <b>b</b></p>"`}, {"xml", `"<h1>👍🏽</h1><p>é<br>x</p>"`}}},
	}
	var cases []yjstest.Case
	for _, d := range docs {
		e := Editor{"org1", "doc1", d.name}
		c := yjstest.Case{Name: d.name, Type: d.steps[0].typ, ContentKey: d.key}
		for i, s := range d.steps {
			in := Content{Type: s.typ, ContentKey: d.key, Data: json.RawMessage(s.data)}
			var err error
			if i == 0 {
				err = svc.Add(ctx, "ws1", e, in, "")
			} else {
				err = svc.Update(ctx, "ws1", e, in, "")
			}
			if err != nil {
				t.Fatal(err)
			}
			views, err := svc.Get(ctx, "ws1", "org1", "doc1", d.name, Query{})
			if err != nil || len(views) != 1 {
				t.Fatalf("get %s: %v %v", d.name, views, err)
			}
			update, err := base64.StdEncoding.DecodeString(views[0].Update)
			if err != nil {
				t.Fatal(err)
			}
			c.Updates = append(c.Updates, update)
			c.Expected = expectedContent(t, s.typ, s.data)
		}
		cases = append(cases, c)
	}
	yjstest.Check(t, cases)
}

func expectedContent(t *testing.T, typ, data string) any {
	t.Helper()
	if typ != "xml" {
		return json.RawMessage(data)
	}
	var s string
	if err := json.Unmarshal([]byte(data), &s); err != nil {
		t.Fatal(err)
	}
	nodes, err := genericxml.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return genericxml.String(nodes)
}
