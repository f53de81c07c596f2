package yjs

import (
	"fmt"
	"slices"

	"github.com/opencollab/backend/svc-content/internal/yjs/lib0"
)

// Map is Y.Map: keys with values (last writer wins per key).
type Map branch

// Array is Y.Array: a sequence of values.
type Array branch

// branchOf returns the branch of a shared type value, or nil.
func branchOf(v any) *branch {
	switch t := v.(type) {
	case *Text:
		return (*branch)(t)
	case *Map:
		return (*branch)(t)
	case *Array:
		return (*branch)(t)
	case *XmlFragment:
		return (*branch)(t)
	case *XmlElement:
		return (*branch)(t)
	case *XmlText:
		return (*branch)(t)
	case *XmlHook:
		return (*branch)(t)
	}
	return nil
}

// public returns the branch as its shared type.
func (b *branch) public() any {
	switch b.ref {
	case refText:
		return (*Text)(b)
	case refMap:
		return (*Map)(b)
	case refArray:
		return (*Array)(b)
	case refXMLFragment:
		return (*XmlFragment)(b)
	case refXMLElement:
		return (*XmlElement)(b)
	case refXMLText:
		return (*XmlText)(b)
	case refXMLHook:
		return (*XmlHook)(b)
	}
	return (*Map)(b) // an untyped root reads as its map entries
}

func checkTx(b *branch, tx *Tx, what string) error {
	if tx == nil || b.doc == nil || tx.doc != b.doc {
		return fmt.Errorf("yjs: the %s is not in the transaction's document", what)
	}
	return nil
}

// NewMap is a map not in a document yet (new Y.Map(entries)); entries are
// written in key order.
func NewMap(entries map[string]any) *Map {
	b := newBranch(refMap, "")
	b.prelim = &prelimContent{entries: lib0.ObjectFromMap(entries)}
	return (*Map)(b)
}

// Map returns the root map name, creating it (doc.getMap); nil when the
// root exists as another kind.
func (d *Doc) Map(name string) *Map { return (*Map)(d.rootAs(name, refMap)) }

// Get returns the value of key (shared types as themselves, objects as
// map[string]any).
func (m *Map) Get(key string) (any, bool) {
	v, ok := (*branch)(m).mapGet(key)
	return jsonValueKeepTypes(v), ok
}

// Keys returns the keys that have a value, sorted.
func (m *Map) Keys() []string {
	keys := make([]string, 0, len(m.entries))
	for k, it := range m.entries {
		if !it.deleted() {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// Len is the number of keys with a value.
func (m *Map) Len() int { return len(m.Keys()) }

// Set sets key to v: a JSON value, []byte, or a shared type made with
// NewText, NewMap, ... .
func (m *Map) Set(tx *Tx, key string, v any) error {
	if err := checkTx((*branch)(m), tx, "map"); err != nil {
		return err
	}
	return tx.mapSet((*branch)(m), key, v)
}

// Delete removes key.
func (m *Map) Delete(tx *Tx, key string) error {
	if err := checkTx((*branch)(m), tx, "map"); err != nil {
		return err
	}
	tx.mapDelete((*branch)(m), key)
	return nil
}

// ToJSON is the map as JSON values (toJSON).
func (m *Map) ToJSON() any { return mapJSON((*branch)(m)) }

func mapJSON(b *branch) map[string]any {
	out := make(map[string]any, len(b.entries))
	for k, it := range b.entries {
		if it.deleted() {
			continue
		}
		vals := contentValues(it.content)
		if len(vals) == 0 {
			continue
		}
		v := vals[int(it.length)-1]
		if _, undef := v.(lib0.UndefinedValue); undef {
			continue
		}
		out[k] = jsonValue(v)
	}
	return out
}

// JSString is how JavaScript's String() renders a map.
func (m *Map) JSString() string { return "[object Object]" }

// NewArray is an array not in a document yet (Y.Array.from(values)).
func NewArray(values ...any) *Array {
	b := newBranch(refArray, "")
	b.prelim = &prelimContent{values: values}
	return (*Array)(b)
}

// Array returns the root array name, creating it (doc.getArray); nil when
// the root exists as another kind.
func (d *Doc) Array(name string) *Array { return (*Array)(d.rootAs(name, refArray)) }

// Len is the number of values.
func (a *Array) Len() int { return a.length }

// Get returns the value at index.
func (a *Array) Get(index int) (any, bool) {
	v, ok := (*branch)(a).get(index)
	return jsonValueKeepTypes(v), ok
}

// Values returns every value (toArray).
func (a *Array) Values() []any {
	vals := (*branch)(a).values()
	out := make([]any, len(vals))
	for i, v := range vals {
		out[i] = jsonValueKeepTypes(v)
	}
	return out
}

// Insert inserts values at index.
func (a *Array) Insert(tx *Tx, index int, values ...any) error {
	if err := checkTx((*branch)(a), tx, "array"); err != nil {
		return err
	}
	return tx.insert((*branch)(a), index, values)
}

// Push appends values.
func (a *Array) Push(tx *Tx, values ...any) error {
	if err := checkTx((*branch)(a), tx, "array"); err != nil {
		return err
	}
	return tx.push((*branch)(a), values)
}

// Delete deletes n values from index.
func (a *Array) Delete(tx *Tx, index, n int) error {
	if err := checkTx((*branch)(a), tx, "array"); err != nil {
		return err
	}
	return tx.deleteFrom((*branch)(a), index, n)
}

// ToJSON is the array as JSON values (toJSON).
func (a *Array) ToJSON() any { return listJSON((*branch)(a)) }

func listJSON(b *branch) []any {
	vals := b.values()
	out := make([]any, len(vals))
	for i, v := range vals {
		out[i] = jsonValue(v)
	}
	return out
}

// JSString is how JavaScript's String() renders an array type.
func (a *Array) JSString() string { return "[object Object]" }
