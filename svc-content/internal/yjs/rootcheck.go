package yjs

import (
	"fmt"

	"github.com/opencollab/backend/svc-content/internal/yjs/lib0"
)

// CheckRoot reports whether what the root type name holds can be read as
// kind without losing content: updates only name a root, so one written
// by a client that used it as another kind (a Y.Map where the document
// keeps a Y.Text) holds structs that kind cannot show. A root that does
// not exist fits every kind. Deleted content is not looked at.
func (d *Doc) CheckRoot(name string, kind Kind) error {
	b, ok := d.share[name]
	if !ok {
		return nil
	}
	if b.ref != refUndefined && b.kind() != kind {
		return fmt.Errorf("root %q is a %s, not a %s", name, b.kind(), kind)
	}
	for _, key := range b.keys {
		if it := b.entries[key]; it != nil && !it.deleted() && kind != KindMap {
			return fmt.Errorf("root %q holds the map entry %q; a %s has none", name, key, kind)
		}
	}
	for it := b.start; it != nil; it = it.right {
		if it.deleted() {
			continue
		}
		if what, ok := fitsSequence(it.content, kind); !ok {
			return fmt.Errorf("root %q holds %s; a %s cannot", name, what, kind)
		}
	}
	return nil
}

// fitsSequence reports whether content may stand in the sequence of a root
// of kind, and names the content for the error.
func fitsSequence(c content, kind Kind) (string, bool) {
	switch c := c.(type) {
	case *contentString:
		return "characters", kind == KindText
	case *contentFormat:
		return "formatting", kind == KindText
	case *contentEmbed:
		return "an embed", kind == KindText
	case *contentType:
		switch c.t.ref {
		case refXMLElement, refXMLText, refXMLHook:
			return "an XML node", kind == KindXML || kind == KindArray || kind == KindText
		}
		return "a nested " + string(c.t.kind()), kind == KindArray || kind == KindText
	case *contentDeleted:
		return "deleted content", true
	}
	return "values", kind == KindArray
}

// ValidateUpdate decodes a v1 update without applying it: nil when it is
// well formed (structs and delete set), else the decoding error. It takes
// time and memory in the update's size.
func ValidateUpdate(update []byte) error {
	_, err := decodeUpdate(newDecoderV1(update))
	return err
}

// RootHolds reports whether the root type name holds undeleted map entries
// and undeleted countable sequence content, without reading it as a kind.
func (d *Doc) RootHolds(name string) (entries, sequence bool) {
	b, ok := d.share[name]
	if !ok {
		return false, false
	}
	for _, it := range b.entries {
		if it != nil && !it.deleted() {
			entries = true
			break
		}
	}
	for it := b.start; it != nil && !sequence; it = it.right {
		sequence = !it.deleted() && it.countable()
	}
	return entries, sequence
}

// OrderedJSON is ToJSON with the keys in the order they were first set,
// the property order of the object Y.Map.toJSON() builds in JavaScript.
func (m *Map) OrderedJSON() lib0.Object {
	b := (*branch)(m)
	values := mapJSON(b)
	var out lib0.ObjectBuilder
	for _, k := range b.keys {
		if v, ok := values[k]; ok {
			out.Set(k, v)
		}
	}
	return out.Object()
}
