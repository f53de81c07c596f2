// Package tiptaptest checks documents against TipTap itself: it runs
// tools/tiptapcheck/check.mjs (at the repository root) under node, which
// loads each case in real TipTap 3 editors (StarterKit, and with an update
// StarterKit + Collaboration on a Y.Doc) in jsdom.
package tiptaptest

import (
	"github.com/opencollab/backend/pkg/nodetool"

	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"
)

// Case is one seed: HTML or ProseMirror JSON, what Go made of it, and
// optionally the Yjs update Go wrote for it.
type Case struct {
	Name   string
	HTML   string          // the seed as HTML, or
	JSON   json.RawMessage // the seed as ProseMirror JSON
	GoJSON json.RawMessage // Go's document (nil: nothing to compare)
	GoHTML string
	Update []byte // Go's Yjs update holding the document at "default"
	// Next is Go's update from Update's document to NextJSON's (both
	// set, or neither).
	Next     []byte
	NextJSON json.RawMessage
	// Missing is what a server answered a client at a state vector (the
	// client holds Update): check.mjs proves it holds only what the client
	// lacks and completes the client to the server's whole state.
	Missing *Missing
}

// Missing is a server's answer to a client at StateVector.
type Missing struct {
	StateVector []byte `json:"stateVector"`
	Update      []byte `json:"update"`
	Full        []byte `json:"full"` // the server's whole state
}

// Result is what TipTap made of a case. Problems lists every check that
// failed in node (OK when none did).
type Result struct {
	Name     string   `json:"name"`
	OK       bool     `json:"ok"`
	Problems []string `json:"problems"`
	TipTap   struct {
		JSON json.RawMessage `json:"json"`
		HTML string          `json:"html"`
	} `json:"tiptap"`
	// With an update: the HTML an editor shows for stock y-prosemirror's
	// fragment and for Go's, after the editor's edits, and in a second
	// editor that received Go's update and the edits.
	StockHTML              string `json:"stockHTML"`
	CollabHTML             string `json:"collabHTML"`
	EditedHTML             string `json:"editedHTML"`
	SecondHTML             string `json:"secondHTML"`
	NextHTML               string `json:"nextHTML"`
	EditUpdate             []byte `json:"editUpdate"`
	MissingHTML            string `json:"missingHTML"` // the editor on the seed plus Missing.Update
	MountAppendedParagraph bool   `json:"mountAppendedParagraph"`
}

type wireCase struct {
	Name    string         `json:"name"`
	Seed    map[string]any `json:"seed"`
	Go      *wireGo        `json:"go,omitempty"`
	Update  []byte         `json:"update,omitempty"`
	Next    *wireNext      `json:"next,omitempty"`
	Missing *Missing       `json:"missing,omitempty"`
}

type wireNext struct {
	Update []byte          `json:"update"`
	JSON   json.RawMessage `json:"json"`
}

type wireGo struct {
	JSON json.RawMessage `json:"json"`
	HTML string          `json:"html"`
}

// Run checks every case in the test binary's one node process (see
// checker) and returns the results by case name. Without node or the
// installed packages (scripts/test.sh installs them) the test is skipped,
// or fails when CI=true.
func Run(t *testing.T, cases []Case) map[string]Result {
	t.Helper()
	script := scriptPath(t)
	var in bytes.Buffer
	for _, c := range cases {
		w := wireCase{Name: c.Name, Update: c.Update, Seed: map[string]any{}, Missing: c.Missing}
		if c.JSON != nil {
			w.Seed["json"] = c.JSON
		} else {
			w.Seed["html"] = c.HTML
		}
		if c.Next != nil {
			w.Next = &wireNext{Update: c.Next, JSON: c.NextJSON}
		}
		if c.GoJSON != nil {
			w.Go = &wireGo{JSON: c.GoJSON, HTML: c.GoHTML}
		}
		line, err := json.Marshal(w)
		if err != nil {
			t.Fatalf("encode case %s: %v", c.Name, err)
		}
		in.Write(append(line, '\n'))
	}
	checker, err := sharedChecker(script)
	if err != nil {
		t.Fatal(err)
	}
	answers, err := checker.check(in.Bytes(), len(cases))
	if err != nil {
		t.Fatal(err)
	}
	results := map[string]Result{}
	for _, line := range answers {
		var r Result
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("check.mjs wrote %q: %v\nstderr: %s", line, err, checker.stderr)
		}
		results[r.Name] = r
	}
	if len(results) != len(cases) {
		t.Fatalf("check.mjs answered %d of %d cases (names repeat?)\nstderr: %s", len(results), len(cases), checker.stderr)
	}
	return results
}

// scriptPath finds tools/tiptapcheck/check.mjs above the working
// directory (the repository root holds go.work).
func scriptPath(t *testing.T) string {
	t.Helper()
	return filepath.Join(nodetool.Dir(t, "tiptapcheck", "@tiptap/core"), "check.mjs")
}
