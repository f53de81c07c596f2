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
	var cases []tiptaptest.Case
	for name, html := range htmlSeeds {
		doc, err := prosemirror.ParseHTML(html)
		if err != nil {
			t.Errorf("ParseHTML(%s): %v", name, err)
			continue
		}
		js, err := json.Marshal(doc)
		if err != nil {
			t.Fatalf("marshal %s: %v", name, err)
		}
		cases = append(cases, tiptaptest.Case{Name: name, HTML: html, GoJSON: js, GoHTML: prosemirror.RenderHTML(doc)})
	}
	for name, r := range tiptaptest.Run(t, cases) {
		if !r.OK {
			t.Errorf("%s: %v\nTipTap: %s\n        %s", name, r.Problems, r.TipTap.JSON, r.TipTap.HTML)
			for _, c := range cases {
				if c.Name == name {
					t.Logf("Go:     %s\n        %s", c.GoJSON, c.GoHTML)
				}
			}
		}
	}
}

// TestParseJSONMatchesTipTap loads every JSON seed in Go and in TipTap:
// getJSON() must equal Go's document and getHTML() Go's rendering.
func TestParseJSONMatchesTipTap(t *testing.T) {
	t.Parallel()
	var cases []tiptaptest.Case
	for name, seed := range jsonSeeds {
		doc, err := prosemirror.ParseJSON([]byte(seed))
		if err != nil {
			t.Errorf("ParseJSON(%s): %v", name, err)
			continue
		}
		js, err := json.Marshal(doc)
		if err != nil {
			t.Fatalf("marshal %s: %v", name, err)
		}
		cases = append(cases, tiptaptest.Case{Name: name, JSON: json.RawMessage(seed), GoJSON: js, GoHTML: prosemirror.RenderHTML(doc)})
	}
	for name, r := range tiptaptest.Run(t, cases) {
		if !r.OK {
			t.Errorf("%s: %v\nTipTap: %s\n        %s", name, r.Problems, r.TipTap.JSON, r.TipTap.HTML)
		}
	}
}
