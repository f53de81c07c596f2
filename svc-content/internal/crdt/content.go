package crdt

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/svc-content/internal/genericxml"
	"github.com/opencollab/backend/svc-content/internal/prosemirror"
	"github.com/opencollab/backend/svc-content/internal/yjs"
	"github.com/opencollab/backend/svc-content/internal/yjs/lib0"
)

// Content is editor data as a request carries it.
type Content struct {
	Type       string
	ContentKey string          // empty: DefaultContentKey on add, the stored key on update
	Data       json.RawMessage // nil: none
	// Update (update only, instead of Data) is a client's Yjs update (v1).
	Update []byte
}

// parsed is content checked against its type, ready to be written into a
// document at a key.
type parsed struct {
	typ string
	// proseMirror: the content follows the TipTap mapping (HTML for
	// contentKey default, or ProseMirror JSON).
	proseMirror bool
	write       func(tx *yjs.Tx, d *yjs.Doc, key string) error
}

// wantJSON names the JSON type data must have for each type.
var wantJSON = map[string]string{"text": "string", "xml": "string", "map": "object", "array": "array"}

// parseContent checks data against typ. An xml string is HTML for TipTap
// (tipTap: the editor's key is default or it was seeded from ProseMirror
// JSON) and generic XML otherwise; an object with "type": "doc" is
// ProseMirror JSON.
func parseContent(typ string, data json.RawMessage, tipTap bool) (parsed, error) {
	want, ok := wantJSON[typ]
	if !ok {
		return parsed{}, api.Errorf(api.InvalidArgument, "field type has unknown value %q; allowed: %s", typ, strings.Join(Types, ", "))
	}
	v, err := lib0.ParseJSON(string(data))
	if err != nil {
		return parsed{}, api.Errorf(api.InvalidArgument, "field data is not valid JSON: %v", err)
	}
	if typ == "xml" && isProseMirrorJSON(v) {
		return parseProseMirrorJSON(data)
	}
	if got := jsonType(v); got != want {
		hint := ""
		if typ == "xml" {
			hint = ` (HTML/XML) or a ProseMirror JSON object with "type": "doc"`
		}
		return parsed{}, api.Errorf(api.InvalidArgument, "data must be %s %s for type %s%s, not %s", article(want), want, typ, hint, got)
	}
	if err := checkFinite(v); err != nil {
		return parsed{}, err
	}
	p := parsed{typ: typ}
	switch typ {
	case "text":
		p.write = func(tx *yjs.Tx, d *yjs.Doc, key string) error { return d.Text(key).SetString(tx, v.(string)) }
	case "map":
		p.write = func(tx *yjs.Tx, d *yjs.Doc, key string) error { return setMap(tx, d.Map(key), v.(lib0.Object)) }
	case "array":
		p.write = func(tx *yjs.Tx, d *yjs.Doc, key string) error { return d.Array(key).SetJSON(tx, v.([]any)) }
	case "xml":
		return parseMarkup(v.(string), tipTap)
	}
	return p, nil
}

// checkFinite refuses numbers JSON cannot carry back (1e999 parses as
// Infinity, which get would answer as null).
func checkFinite(v any) error {
	switch t := v.(type) {
	case float64:
		if math.IsInf(t, 0) || math.IsNaN(t) {
			return api.Errorf(api.InvalidArgument, "field data holds a number out of range")
		}
	case []any:
		for _, x := range t {
			if err := checkFinite(x); err != nil {
				return err
			}
		}
	case lib0.Object:
		for _, f := range t {
			if err := checkFinite(f.Value); err != nil {
				return err
			}
		}
	}
	return nil
}

func isProseMirrorJSON(v any) bool {
	o, ok := v.(lib0.Object)
	if !ok {
		return false
	}
	t, _ := o.Get("type")
	return t == "doc"
}

func parseProseMirrorJSON(data json.RawMessage) (parsed, error) {
	node, err := prosemirror.ParseJSON(data)
	if err != nil {
		return parsed{}, contentError("ProseMirror JSON", err)
	}
	return tipTapContent(node), nil
}

// tipTapContent writes a ProseMirror document with the TipTap mapping.
func tipTapContent(node *prosemirror.Node) parsed {
	return parsed{typ: "xml", proseMirror: true, write: func(tx *yjs.Tx, d *yjs.Doc, key string) error {
		return prosemirror.WriteFragment(tx, d.XmlFragment(key), node)
	}}
}

func parseMarkup(s string, tipTap bool) (parsed, error) {
	if tipTap {
		node, err := prosemirror.ParseHTML(s)
		if err != nil {
			return parsed{}, contentError("HTML", err)
		}
		return tipTapContent(node), nil
	}
	nodes, err := genericxml.Parse(s)
	if err != nil {
		return parsed{}, api.Errorf(api.InvalidArgument, "data is not valid HTML/XML: %v", err)
	}
	return parsed{typ: "xml", write: func(tx *yjs.Tx, d *yjs.Doc, key string) error {
		return genericxml.Write(tx, d.XmlFragment(key), nodes)
	}}, nil
}

// contentError maps a mapping's refusal to INVALID_ARGUMENT.
func contentError(what string, err error) error {
	if errors.Is(err, prosemirror.ErrInvalid) {
		return api.Errorf(api.InvalidArgument, "data is not valid %s for a TipTap editor: %v", what, err)
	}
	return fmt.Errorf("crdt: parse %s: %w", what, err)
}

func jsonType(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case lib0.Object:
		return "object"
	case []any:
		return "array"
	case nil:
		return "null"
	case bool:
		return "boolean"
	}
	return "number"
}

func article(word string) string {
	if strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}

// checkContentKey applies the rules of contentKey: it names a shared type
// of the Yjs document, so it must not be blank, and like every key it must
// not start with '$' or contain '.'.
func checkContentKey(key string) error {
	switch {
	case strings.TrimSpace(key) == "":
		return api.Errorf(api.InvalidArgument, "field contentKey must not be empty")
	case strings.HasPrefix(key, "$"):
		return api.Errorf(api.InvalidArgument, "field contentKey must not start with '$'")
	case strings.Contains(key, "."):
		return api.Errorf(api.InvalidArgument, "field contentKey must not contain '.'")
	}
	return nil
}

// writeContent writes p at key as one transaction of d and returns its
// update (nil when nothing changed).
func writeContent(d *yjs.Doc, key string, p parsed) ([]byte, error) {
	update, err := d.Transact(func(tx *yjs.Tx) error { return p.write(tx, d, key) })
	if err != nil {
		return nil, api.Errorf(api.InvalidArgument, "field data cannot be stored: %v", err)
	}
	return update, nil
}

// setMap makes m hold exactly entries: keys not in entries are deleted,
// keys whose value differs are set in the order posted (so a new map keeps
// the posted key order), equal keys are left alone.
func setMap(tx *yjs.Tx, m *yjs.Map, entries lib0.Object) error {
	posted := make(map[string]bool, len(entries))
	for _, f := range entries {
		posted[f.Key] = true
	}
	for _, k := range m.Keys() {
		if !posted[k] {
			if err := m.Delete(tx, k); err != nil {
				return err
			}
		}
	}
	for _, f := range entries {
		if cur, ok := m.Get(f.Key); ok && sameJSON(cur, f.Value) {
			continue
		}
		if err := m.Set(tx, f.Key, f.Value); err != nil {
			return err
		}
	}
	return nil
}

// sameJSON reports whether two values read as the same JSON.
func sameJSON(a, b any) bool {
	sa, okA, errA := lib0.StringifyJSON(a)
	sb, okB, errB := lib0.StringifyJSON(b)
	return okA && okB && errA == nil && errB == nil && sa == sb
}
