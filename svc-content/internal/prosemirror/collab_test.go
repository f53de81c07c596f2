package prosemirror_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/opencollab/backend/svc-content/internal/prosemirror"
	"github.com/opencollab/backend/svc-content/internal/prosemirror/tiptaptest"
	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// field is the fragment TipTap's Collaboration extension binds by default.
const field = "default"

// seeded is one seed written by Go into a Yjs document.
type seeded struct {
	doc    *prosemirror.Node
	ydoc   *yjs.Doc
	update []byte
}

func seed(t *testing.T, doc *prosemirror.Node) seeded {
	t.Helper()
	ydoc := yjs.NewDoc(1)
	if _, err := ydoc.Transact(func(tx *yjs.Tx) error {
		return prosemirror.WriteFragment(tx, ydoc.XmlFragment(field), doc)
	}); err != nil {
		t.Fatalf("WriteFragment: %v", err)
	}
	update, err := ydoc.EncodeStateAsUpdate(nil)
	if err != nil {
		t.Fatal(err)
	}
	return seeded{doc: doc, ydoc: ydoc, update: update}
}

// editorView is what a mounted TipTap editor shows for a document: its
// HTML, plus the empty paragraph StarterKit's TrailingNode appends when
// the last block is not a paragraph.
func editorView(doc *prosemirror.Node) string {
	html := prosemirror.RenderHTML(doc)
	if n := len(doc.Content); n == 0 || doc.Content[n-1].Type != "paragraph" {
		html += "<p></p>"
	}
	return html
}

func readView(t *testing.T, ydoc *yjs.Doc) string {
	t.Helper()
	doc, err := prosemirror.ReadFragment(ydoc.XmlFragment(field))
	if err != nil {
		t.Fatalf("ReadFragment: %v", err)
	}
	return editorView(doc)
}

// TestSeedsLoadInCollaborativeTipTap writes every seed (HTML and JSON) into
// a Yjs document and mounts it in TipTap with the Collaboration extension:
// the fragment equals what y-prosemirror writes for TipTap's own document,
// the editor shows it as it shows y-prosemirror's, mounting deletes
// nothing, and the editor's edits, applied in Go, read back as the editor
// and a second editor show them.
func TestSeedsLoadInCollaborativeTipTap(t *testing.T) {
	t.Parallel()
	var cases []tiptaptest.Case
	docs := map[string]seeded{}
	add := func(name string, doc *prosemirror.Node, c tiptaptest.Case) {
		s := seed(t, doc)
		docs[name] = s
		js, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		c.Name, c.GoJSON, c.GoHTML, c.Update = name, js, prosemirror.RenderHTML(doc), s.update
		cases = append(cases, c)
	}
	for name, html := range tiptaptest.HTMLSeeds {
		doc, err := prosemirror.ParseHTML(html)
		if err != nil {
			t.Fatalf("ParseHTML(%s): %v", name, err)
		}
		add(name, doc, tiptaptest.Case{HTML: html})
	}
	for name, js := range tiptaptest.JSONSeeds {
		doc, err := prosemirror.ParseJSON([]byte(js))
		if err != nil {
			t.Fatalf("ParseJSON(%s): %v", name, err)
		}
		add(name, doc, tiptaptest.Case{JSON: json.RawMessage(js)})
	}
	results := tiptaptest.Run(t, cases)
	for name, s := range docs {
		r := results[name]
		if !r.OK {
			t.Errorf("%s: %s", name, strings.Join(r.Problems, "; "))
			continue
		}
		if got := readView(t, s.ydoc); got != r.CollabHTML {
			t.Errorf("%s: Go reads the seeded fragment as %q, the editor shows %q", name, got, r.CollabHTML)
		}
		if err := s.ydoc.ApplyUpdate(r.EditUpdate); err != nil {
			t.Errorf("%s: apply the editor's update: %v", name, err)
			continue
		}
		if got := readView(t, s.ydoc); got != r.SecondHTML {
			t.Errorf("%s: after the editor's edits Go reads %q, a second editor shows %q", name, got, r.SecondHTML)
		}
		if !strings.Contains(r.SecondHTML, "Edited ✓") {
			t.Errorf("%s: the edit is missing: %q", name, r.SecondHTML)
		}
	}
}
