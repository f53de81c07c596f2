package crdt

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/opencollab/backend/pkg/api"
	yjs "github.com/opencollab/backend/svc-content/internal/crdt/legacyyjs"
)

// maxStoredBytes bounds a record below MongoDB's 16 MiB document limit.
const maxStoredBytes = 14 << 20

// Content is editor data as a request carries it.
type Content struct {
	Type       string
	ContentKey string // empty: DefaultContentKey on add, the stored key on update
	Data       json.RawMessage
}

// parsed is content checked against its type, ready for the encoder.
type parsed struct {
	kind  yjs.Kind
	value any             // string, yjs.Object or []any
	nodes []yjs.XMLNode   // xml only
	data  json.RawMessage // compact JSON as posted
}

// wantJSON names the JSON type data must have for each type.
var wantJSON = map[string]string{"text": "string", "xml": "string", "map": "object", "array": "array"}

// parseContent checks that data's JSON type matches typ and, for xml, that
// the string is markup.
func parseContent(typ string, data json.RawMessage) (parsed, error) {
	want, ok := wantJSON[typ]
	if !ok {
		return parsed{}, api.Errorf(api.InvalidArgument, "field type has unknown value %q; allowed: %s", typ, strings.Join(Types, ", "))
	}
	v, err := yjs.ParseJSON(data)
	if err != nil {
		return parsed{}, api.Errorf(api.InvalidArgument, "field data is not valid: %v", err)
	}
	if jsonType(v) != want {
		return parsed{}, api.Errorf(api.InvalidArgument, "data must be %s %s for type %s", article(want), want, typ)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, data); err != nil {
		return parsed{}, api.Errorf(api.InvalidArgument, "field data is not valid JSON")
	}
	p := parsed{kind: yjs.Kind(typ), value: v, data: compact.Bytes()}
	if typ == "xml" {
		if p.nodes, err = yjs.ParseHTML(v.(string)); err != nil {
			return parsed{}, api.Errorf(api.InvalidArgument, "data is not valid HTML/XML: %v", err)
		}
	}
	return p, nil
}

func jsonType(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case yjs.Object:
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

// setContent writes p as the next version of doc and returns the full
// update.
func setContent(doc *yjs.Doc, p parsed) ([]byte, error) {
	var update []byte
	var err error
	switch p.kind {
	case yjs.KindText:
		update, err = doc.SetText(p.value.(string))
	case yjs.KindMap:
		update, err = doc.SetMap(p.value.(yjs.Object))
	case yjs.KindArray:
		update, err = doc.SetArray(p.value.([]any))
	case yjs.KindXML:
		update, err = doc.SetXML(p.nodes)
	default:
		return nil, fmt.Errorf("crdt: unknown kind %q", p.kind)
	}
	if err != nil {
		return nil, api.Errorf(api.InvalidArgument, "field data cannot be stored: %v", err)
	}
	if stored := len(update) + len(p.data) + len(doc.History) + len(doc.Current); stored > maxStoredBytes {
		return nil, api.Errorf(api.InvalidArgument, "editor data is too large to store (%d bytes of content and history; at most %d)", stored, maxStoredBytes)
	}
	return update, nil
}

// newClientID is a random Yjs client id, as Yjs picks one per Y.Doc.
func newClientID() uint32 {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return binary.LittleEndian.Uint32(b[:])
}
