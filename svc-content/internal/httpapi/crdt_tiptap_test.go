package httpapi

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/svc-content/internal/prosemirror/tiptaptest"
)

// crdtView is one editor of a get reply.
type crdtView struct {
	ID          string          `json:"id"`
	Data        json.RawMessage `json:"data"`
	Update      string          `json:"update"`
	StateVector string          `json:"stateVector"`
}

// getEditor reads one editor through /v2/crdt/get with extra request
// fields (e.g. `"format":"yjs"`).
func getEditor(t *testing.T, e *gin.Engine, doc, editor, extra string) crdtView {
	t.Helper()
	body := fmt.Sprintf(`{"organizationId":"o1","documentId":%q,"editorId":%q%s}`, doc, editor, extra)
	r := post(t, e, "/v2/crdt/get", body)
	if r.Code != 200 || len(r.Result.Data) != 1 {
		t.Fatalf("get %s %s: %d %s", editor, extra, r.Code, r.Raw)
	}
	var v crdtView
	if err := json.Unmarshal(r.Result.Data[0], &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func unbase64(t *testing.T, s string) []byte {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatalf("%q is not base64: %v", s, err)
	}
	return b
}

// seededEditor is one TipTap editor seeded through /v2/crdt/add.
type seededEditor struct {
	id   string
	seed tiptaptest.Case // the seed and what get answered for it
	sv   string          // the seed's state vector (base64)
}

// TestTipTapEditorsOverREST seeds every StarterKit node and mark through
// /v2/crdt/add, from HTML and from ProseMirror JSON, and hands what
// /v2/crdt/get answers to real TipTap editors (tools/tiptapcheck):
// getHTML() of an editor built from the seed must equal get's data (and
// get's ProseMirror JSON its getJSON()), a collaborative editor mounted on
// get's Yjs update must show it and delete nothing, its edit posted back
// as update must show in get, a second editor must converge, and the
// update get answers for the seed's state vector must hold only the edit
// (checked with stock yjs).
func TestTipTapEditorsOverREST(t *testing.T) {
	t.Parallel()
	e := crdtEngine(t)
	var editors []seededEditor
	seed := func(name string, data json.RawMessage, c tiptaptest.Case) {
		id := fmt.Sprintf("e%d", len(editors))
		body := fmt.Sprintf(`{"organizationId":"o1","documentId":"tiptap","editorId":%q,"type":"xml","contentKey":"default","data":%s}`, id, data)
		if r := post(t, e, "/v2/crdt/add", body); r.Code != 200 {
			t.Fatalf("add %s: %s", name, r.Raw)
		}
		v := getEditor(t, e, "tiptap", id, `,"format":"yjs"`)
		var html string
		if err := json.Unmarshal(v.Data, &html); err != nil {
			t.Fatalf("%s: data %s is not a string", name, v.Data)
		}
		c.Name, c.GoHTML, c.Update = name, html, unbase64(t, v.Update)
		c.GoJSON = getEditor(t, e, "tiptap", id, `,"format":"prosemirror"`).Data
		editors = append(editors, seededEditor{id: id, seed: c, sv: v.StateVector})
	}
	for _, name := range sortedKeys(tiptaptest.HTMLSeeds) {
		html := tiptaptest.HTMLSeeds[name]
		data, _ := json.Marshal(html)
		seed("html "+name, data, tiptaptest.Case{HTML: html})
	}
	for _, name := range sortedKeys(tiptaptest.JSONSeeds) {
		js := json.RawMessage(tiptaptest.JSONSeeds[name])
		seed(name, js, tiptaptest.Case{JSON: js})
	}
	cases := make([]tiptaptest.Case, len(editors))
	for i, ed := range editors {
		cases[i] = ed.seed
	}
	mounted := tiptaptest.Run(t, cases)

	var missing []tiptaptest.Case
	for _, ed := range editors {
		r := mounted[ed.seed.Name]
		if !r.OK && !markedHardBreak(r) {
			t.Errorf("%s: %v\nTipTap: %s\nget:    %s %s", ed.seed.Name, r.Problems, r.TipTap.HTML, ed.seed.GoHTML, ed.seed.GoJSON)
			continue
		}
		// StarterKit's TrailingNode shows an empty paragraph after a last
		// node that is not a non-empty paragraph (documented).
		html := ed.seed.GoHTML
		trailing := !strings.HasSuffix(html, "</p>") || strings.HasSuffix(html, "<p></p>")
		if r.CollabHTML != html && (!trailing || r.CollabHTML != html+"<p></p>") {
			t.Errorf("%s: an editor on the stored document shows %q, get answers %q", ed.seed.Name, r.CollabHTML, ed.seed.GoHTML)
		}
		body := fmt.Sprintf(`{"organizationId":"o1","documentId":"tiptap","editorId":%q,"update":%q,"userId":"editor"}`,
			ed.id, base64.StdEncoding.EncodeToString(r.EditUpdate))
		if up := post(t, e, "/v2/crdt/update", body); up.Code != 200 {
			t.Fatalf("%s: posting the edit back: %s", ed.seed.Name, up.Raw)
		}
		after := getEditor(t, e, "tiptap", ed.id, `,"format":"yjs","stateVector":"`+ed.sv+`"`)
		var got string
		if err := json.Unmarshal(after.Data, &got); err != nil || got != r.SecondHTML {
			t.Errorf("%s: get after the edit = %s, editors show %q", ed.seed.Name, after.Data, r.SecondHTML)
		}
		c := ed.seed
		c.GoJSON, c.Missing = nil, &tiptaptest.Missing{
			StateVector: unbase64(t, ed.sv), Update: unbase64(t, after.Update),
			Full: unbase64(t, getEditor(t, e, "tiptap", ed.id, `,"format":"yjs"`).Update),
		}
		missing = append(missing, c)
	}
	for name, r := range tiptaptest.Run(t, missing) {
		if !r.OK {
			t.Errorf("%s: the missing part: %v", name, r.Problems)
		} else if r.MissingHTML != mounted[name].SecondHTML {
			t.Errorf("%s: the seed plus the missing part shows %q, editors %q", name, r.MissingHTML, mounted[name].SecondHTML)
		}
	}
}

// markedHardBreak is the documented y-prosemirror limitation: a hard
// break inside a mark is stored without its marks, so every collaborative
// editor (and get) shows the break between two marked runs, while TipTap
// without collaboration keeps it inside the mark. Only the two seed
// comparisons may fail for it.
func markedHardBreak(r tiptaptest.Result) bool {
	want := []string{"Go JSON differs from TipTap getJSON()", "Go RenderHTML differs from TipTap getHTML()"}
	return strings.Contains(r.TipTap.HTML, "<br>") && slices.Equal(r.Problems, want) &&
		strings.Count(r.CollabHTML, "<br>") == strings.Count(r.TipTap.HTML, "<br>")
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
