package e2e

import (
	"encoding/base64"
	"fmt"
	"regexp"
	"slices"
	"testing"
)

// e3Editor reads one editor of org/doc (nil when it has none).
func (s *stack) e3Editor(c creds, org, doc, editor string) map[string]any {
	s.t.Helper()
	got := objects(s.t, s.okAs(c, "/v2/crdt/get", map[string]any{"organizationId": org, "documentId": doc, "editorId": editor}))
	switch len(got) {
	case 0:
		return nil
	case 1:
		return got[0]
	}
	s.t.Fatalf("editor %s returned %d times", editor, len(got))
	return nil
}

var e3ISOMillis = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)

func TestCRDTThroughGateway(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	const org, doc = "acme", "d1"
	write := func(op, editor, typ string, data any) reply {
		t.Helper()
		return s.call("/v2/crdt/"+op, map[string]any{"organizationId": org, "documentId": doc, "editorId": editor, "type": typ, "data": data})
	}

	t.Run("add then get", func(t *testing.T) {
		r := s.ok("/v2/crdt/add", map[string]any{"organizationId": org, "documentId": doc, "editorId": "e1", "type": "text", "data": "Hello", "userId": "ann"})
		if r.Data() != nil {
			t.Fatalf("add answers data: %s", r.Raw)
		}
		e1 := s.e3Editor(s.ws, org, doc, "e1")
		update, err := base64.StdEncoding.DecodeString(e1["update"].(string))
		if e1["id"] != "e1" || e1["data"] != "Hello" || e1["type"] != "text" || e1["contentKey"] != "content" || e1["lastUpdatedBy"] != "ann" ||
			e1["sessionId"] != nil || !e3ISOMillis.MatchString(e1["lastUpdate"].(string)) || err != nil || len(update) == 0 {
			t.Fatalf("editor e1 = %v", e1)
		}
		expectOK(t, write("add", "e2", "map", map[string]any{"title": "T", "n": 2}))
		expectOK(t, s.call("/v2/crdt/add", map[string]any{"organizationId": org, "documentId": doc, "editorId": "e3", "type": "xml", "data": "<p>x</p>", "contentKey": "default"}))
		all := field(t, s.ok("/v2/crdt/get", map[string]any{"organizationId": org, "documentId": doc}), "id")
		slices.Sort(all)
		if !slices.Equal(all, []string{"e1", "e2", "e3"}) {
			t.Fatalf("all editors = %v", all)
		}
		if e3 := s.e3Editor(s.ws, org, doc, "e3"); e3["contentKey"] != "default" || e3["lastUpdatedBy"] != nil {
			t.Fatalf("editor e3 = %v", e3)
		}
		if s.e3Editor(s.ws, org, doc, "ghost") != nil || s.e3Editor(s.ws, org, "d2", "e1") != nil {
			t.Fatal("get finds editors that were never added")
		}
	})

	t.Run("add errors", func(t *testing.T) {
		expectStatus(t, write("add", "e1", "text", "again"), "ALREADY_EXISTS", 409)
		for name, r := range map[string]reply{
			"missing editorId":     s.call("/v2/crdt/add", map[string]any{"organizationId": org, "documentId": doc, "type": "text", "data": "x"}),
			"missing organization": s.call("/v2/crdt/add", map[string]any{"documentId": doc, "editorId": "e9", "type": "text", "data": "x"}),
			"missing data":         s.call("/v2/crdt/add", map[string]any{"organizationId": org, "documentId": doc, "editorId": "e9", "type": "text"}),
			"unknown type":         write("add", "e9", "tree", "x"),
			"map with a string":    write("add", "e9", "map", "x"),
			"text with an object":  write("add", "e9", "text", map[string]any{"a": 1}),
			"array with an object": write("add", "e9", "array", map[string]any{"a": 1}),
			"empty contentKey": s.call("/v2/crdt/add", map[string]any{"organizationId": org, "documentId": doc, "editorId": "e9",
				"type": "text", "data": "x", "contentKey": ""}),
		} {
			if r.Status() != "INVALID_ARGUMENT" || r.Code != 400 {
				t.Errorf("%s: got %d %s", name, r.Code, r.Raw)
			}
		}
		if e1 := s.e3Editor(s.ws, org, doc, "e1"); e1["data"] != "Hello" {
			t.Fatalf("refused add changed e1: %v", e1)
		}
		if s.e3Editor(s.ws, org, doc, "e9") != nil {
			t.Fatal("a refused add created e9")
		}
		s.fails("/v2/crdt/get", map[string]any{"documentId": doc}, "INVALID_ARGUMENT", 400)
	})

	t.Run("update", func(t *testing.T) {
		before := s.e3Editor(s.ws, org, doc, "e1")
		expectOK(t, s.call("/v2/crdt/update", map[string]any{"organizationId": org, "documentId": doc, "editorId": "e1", "type": "text", "data": "Hello, world", "userId": "bob"}))
		e1 := s.e3Editor(s.ws, org, doc, "e1")
		if e1["data"] != "Hello, world" || e1["lastUpdatedBy"] != "bob" || e1["update"] == before["update"] {
			t.Fatalf("updated e1 = %v", e1)
		}
		expectStatus(t, write("update", "ghost", "text", "x"), "NOT_FOUND", 404)
		if s.e3Editor(s.ws, org, doc, "ghost") != nil {
			t.Fatal("update created ghost")
		}
		for name, r := range map[string]reply{
			"type of another editor": write("update", "e1", "map", map[string]any{"a": 1}),
			"data not of the type":   write("update", "e1", "text", []any{1}),
			"missing editorId":       s.call("/v2/crdt/update", map[string]any{"organizationId": org, "documentId": doc, "type": "text", "data": "x"}),
			"other contentKey": s.call("/v2/crdt/update", map[string]any{"organizationId": org, "documentId": doc, "editorId": "e1",
				"type": "text", "data": "x", "contentKey": "other"}),
		} {
			if r.Status() != "INVALID_ARGUMENT" || r.Code != 400 {
				t.Errorf("%s: got %d %s", name, r.Code, r.Raw)
			}
		}
		if e1 := s.e3Editor(s.ws, org, doc, "e1"); e1["data"] != "Hello, world" {
			t.Fatalf("refused updates changed e1: %v", e1)
		}
	})
}

// TestCRDTYjsRoundTrip writes every type through the gateway, reads the
// base64 updates back through the gateway and loads them with the real yjs
// library: each version's update alone must read back as what was written,
// and a peer applying them in order must converge to it.
func TestCRDTYjsRoundTrip(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	const org, doc = "acme", "yjs"
	type version struct {
		data     any
		expected any // what yjs reads back
	}
	editors := []struct {
		name, typ, key string
		versions       []version
	}{
		{"text", "text", "content", []version{{"héllo 👍🏽", "héllo 👍🏽"}, {"bye", "bye"}, {"bye, bye", "bye, bye"}}},
		{"map", "map", "content", []version{
			{map[string]any{"title": "T", "n": -12, "f": 0.25, "nested": map[string]any{"x": []any{nil, true}}}, nil},
			{map[string]any{"title": "U"}, nil},
		}},
		{"array", "array", "items", []version{{[]any{1, "two", map[string]any{"three": 3}}, nil}, {[]any{false}, nil}}},
		// contentKey default is TipTap: get answers the HTML, yjs reads
		// y-prosemirror's XML (node names, typed attributes).
		{"xml", "xml", "default", []version{
			{"<p>one</p><p>two</p>", "<paragraph>one</paragraph><paragraph>two</paragraph>"},
			{"<h1>title</h1>", `<heading level="1">title</heading>`},
		}},
	}
	var cases []e3YjsCase
	for _, e := range editors {
		var updates []string
		for i, v := range e.versions {
			op := "update"
			if i == 0 {
				op = "add"
			}
			s.ok("/v2/crdt/"+op, map[string]any{"organizationId": org, "documentId": doc, "editorId": e.name, "type": e.typ, "data": v.data, "contentKey": e.key})
			got := s.e3Editor(s.ws, org, doc, e.name)
			if e3JSON(got["data"]) != e3JSON(v.data) {
				t.Fatalf("%s version %d: get data %s, want %s", e.name, i+1, e3JSON(got["data"]), e3JSON(v.data))
			}
			update, _ := got["update"].(string)
			updates = append(updates, update)
			expected := v.expected
			if expected == nil {
				expected = v.data
			}
			// check.mjs loads the last update alone into a fresh document,
			// applies all of them in order to one peer, and for a single
			// update also compares it with what yjs encodes itself.
			cases = append(cases, e3YjsCase{Name: fmt.Sprintf("%s versions 1..%d", e.name, i+1), Type: e.typ, ContentKey: e.key,
				Updates: slices.Clone(updates), Expected: expected})
		}
	}
	// However many versions, get lists each editor once, at its latest.
	var latest []string
	for _, e := range objects(t, s.ok("/v2/crdt/get", map[string]any{"organizationId": org, "documentId": doc})) {
		latest = append(latest, e["id"].(string)+"="+e3JSON(e["data"]))
	}
	slices.Sort(latest)
	if want := []string{`array=[false]`, `map={"title":"U"}`, `text="bye, bye"`, `xml="<h1>title</h1>"`}; !slices.Equal(latest, want) {
		t.Fatalf("editors of the document: %v, want %v", latest, want)
	}
	e3CheckWithYjs(t, cases)
}
