package prosemirror_test

import (
	"encoding/json"
	"testing"

	"github.com/opencollab/backend/svc-content/internal/prosemirror"
	"github.com/opencollab/backend/svc-content/internal/prosemirror/tiptaptest"
)

// TestParseHTMLMatchesTipTap parses every HTML seed in Go and in TipTap:
// the ProseMirror JSON and getHTML() must be equal, and TipTap must render
// Go's JSON as Go does.
func TestParseHTMLMatchesTipTap(t *testing.T) {
	t.Parallel()
	matchTipTap(t, tiptaptest.HTMLSeeds, prosemirror.ParseHTML, func(seed string) tiptaptest.Case {
		return tiptaptest.Case{HTML: seed}
	})
}

// TestParseJSONMatchesTipTap loads every JSON seed in Go and in TipTap:
// getJSON() must equal Go's document and getHTML() Go's rendering.
func TestParseJSONMatchesTipTap(t *testing.T) {
	t.Parallel()
	parse := func(s string) (*prosemirror.Node, error) { return prosemirror.ParseJSON([]byte(s)) }
	matchTipTap(t, tiptaptest.JSONSeeds, parse, func(seed string) tiptaptest.Case {
		return tiptaptest.Case{JSON: json.RawMessage(seed)}
	})
}

func matchTipTap(t *testing.T, seeds map[string]string, parse func(string) (*prosemirror.Node, error), asCase func(string) tiptaptest.Case) {
	t.Helper()
	var cases []tiptaptest.Case
	goJSON := map[string]string{}
	for name, seed := range seeds {
		doc, err := parse(seed)
		if err != nil {
			t.Errorf("parse %s: %v", name, err)
			continue
		}
		js, err := json.Marshal(doc)
		if err != nil {
			t.Fatalf("marshal %s: %v", name, err)
		}
		c := asCase(seed)
		c.Name, c.GoJSON, c.GoHTML = name, js, prosemirror.RenderHTML(doc)
		cases = append(cases, c)
		goJSON[name] = string(js) + "\n        " + c.GoHTML
	}
	for name, r := range tiptaptest.Run(t, cases) {
		if !r.OK {
			t.Errorf("%s: %v\nTipTap: %s\n        %s\nGo:     %s", name, r.Problems, r.TipTap.JSON, r.TipTap.HTML, goJSON[name])
		}
	}
}
