package crdt

import (
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/svc-content/internal/prosemirror"
	"github.com/opencollab/backend/svc-content/internal/yjs"
	"github.com/opencollab/backend/svc-content/internal/yjs/lib0"
)

// Formats of get's data.
const (
	FormatDefault     = ""            // text, map/array JSON, XML string; HTML for TipTap
	FormatProseMirror = "prosemirror" // TipTap editors: ProseMirror JSON (editor.getJSON())
	FormatYjs         = "yjs"         // as default, plus stateVector and update from a state vector
)

// loadDoc builds the document of a state and the log entries after it. A
// logged entry that does not decode (none should: appends check them) is
// skipped with a warning rather than making the editor unreadable.
func loadDoc(state []byte, log []LogEntry) (*yjs.Doc, error) {
	d := yjs.NewDoc(uint64(newClientID()))
	if len(state) > 0 {
		if err := d.ApplyUpdate(state); err != nil {
			return nil, fmt.Errorf("crdt: stored state does not decode: %w", err)
		}
	}
	for _, e := range log {
		if err := d.ApplyUpdate(e.Update); err != nil {
			slog.Warn("crdt: skipping a logged update that does not decode", "editorId", e.EditorID, "id", e.ID, "error", err)
		}
	}
	return d, nil
}

// readContent reads the content at key as get returns it: the text, the
// map or array as JSON, for TipTap editors the HTML editor.getHTML()
// gives (or its ProseMirror JSON), for other XML Y.XmlFragment.toString().
func readContent(d *yjs.Doc, st State, format string) (json.RawMessage, error) {
	if err := d.CheckRoot(st.ContentKey, kindOf(st.Type)); err != nil {
		return nil, fmt.Errorf("crdt: editor %s: %w", st.EditorID, err)
	}
	var v any
	switch st.Type {
	case "text":
		v = d.Text(st.ContentKey).String()
	case "map":
		v = d.Map(st.ContentKey).OrderedJSON()
	case "array":
		v = d.Array(st.ContentKey).ToJSON()
	default:
		frag := d.XmlFragment(st.ContentKey)
		if st.tipTap() {
			// A top-level element TipTap drops means the fragment was not
			// written with the TipTap mapping (the previous writer stored
			// <p> as an element named p): its generic XML is the faithful
			// reading then.
			if node, err := prosemirror.ReadFragment(frag); err == nil && len(node.Content) == frag.Len() {
				if format == FormatProseMirror {
					return json.Marshal(node)
				}
				v = prosemirror.RenderHTML(node)
				break
			}
		}
		v = frag.ToString()
	}
	s, _, err := lib0.StringifyJSON(v)
	if err != nil {
		return nil, fmt.Errorf("crdt: render content: %w", err)
	}
	return json.RawMessage(s), nil
}

func kindOf(typ string) yjs.Kind {
	if typ == "xml" {
		return yjs.KindXML
	}
	return yjs.Kind(typ)
}

// checkFormat refuses unknown formats.
func checkFormat(format string) error {
	switch format {
	case FormatDefault, FormatProseMirror, FormatYjs:
		return nil
	}
	return api.Errorf(api.InvalidArgument, "field format has unknown value %q; allowed: %s, %s", format, FormatProseMirror, FormatYjs)
}
