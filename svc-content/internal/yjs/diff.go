package yjs

import (
	"errors"
	"reflect"
	"slices"
	"unicode/utf16"
	"unicode/utf8"
)

// Replacing content with the fewest operations, so that a peer holding the
// old state merges the change without duplicating what stayed: the common
// start and end are kept and only the middle is replaced (lib0's
// simpleDiffString / simpleDiffArray, as y-prosemirror diffs).

// embedUnit stands for an embed or a shared type inside a text while
// diffing: it matches nothing a caller's string holds but itself.
const embedUnit = '\uFFFC'

// SetString makes the text read s: the common start and end stay (with
// their formatting and concurrent edits), the middle is deleted and s's
// middle inserted, continuing the formatting in effect there. Embeds in the
// changed middle go.
func (t *Text) SetString(tx *Tx, s string) error {
	if !utf8.ValidString(s) {
		return errors.New("yjs: text is not valid UTF-8")
	}
	var have []uint16
	for _, op := range t.Delta() {
		if str, ok := op.Insert.(string); ok {
			have = append(have, utf16.Encode([]rune(str))...)
		} else {
			have = append(have, embedUnit)
		}
	}
	want := utf16.Encode([]rune(s))
	index, remove, insert := simpleDiff(have, want)
	if remove > 0 {
		if err := t.Delete(tx, index, remove); err != nil {
			return err
		}
	}
	if len(insert) > 0 {
		return t.Insert(tx, index, string(utf16.Decode(insert)), nil)
	}
	return nil
}

// simpleDiff is simpleDiffString over UTF-16 units: the edit at index that
// removes remove units and inserts insert, never cutting a surrogate pair.
func simpleDiff(a, b []uint16) (index, remove int, insert []uint16) {
	left, right := 0, 0
	for left < len(a) && left < len(b) && a[left] == b[left] {
		left++
	}
	if left > 0 && utf16.IsSurrogate(rune(a[left-1])) && a[left-1] < 0xDC00 {
		left--
	}
	for right+left < len(a) && right+left < len(b) && a[len(a)-right-1] == b[len(b)-right-1] {
		right++
	}
	if right > 0 && a[len(a)-right] >= 0xDC00 && a[len(a)-right] <= 0xDFFF {
		right--
	}
	return left, len(a) - left - right, b[left : len(b)-right]
}

// SetJSON makes the map hold exactly entries: keys whose value differs are
// set, keys not in entries are deleted, equal keys are left alone.
func (m *Map) SetJSON(tx *Tx, entries map[string]any) error {
	for _, k := range m.Keys() {
		if _, ok := entries[k]; !ok {
			if err := m.Delete(tx, k); err != nil {
				return err
			}
		}
	}
	keys := make([]string, 0, len(entries))
	for k := range entries {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if cur, ok := m.Get(k); ok && sameJSON(cur, entries[k]) {
			continue
		}
		if err := m.Set(tx, k, entries[k]); err != nil {
			return err
		}
	}
	return nil
}

// SetJSON makes the array hold exactly values: the equal values at the
// start and the end stay, the ones between are replaced.
func (a *Array) SetJSON(tx *Tx, values []any) error {
	have := a.Values()
	left, right := 0, 0
	for left < len(have) && left < len(values) && sameJSON(have[left], values[left]) {
		left++
	}
	for right+left < len(have) && right+left < len(values) && sameJSON(have[len(have)-right-1], values[len(values)-right-1]) {
		right++
	}
	if n := len(have) - left - right; n > 0 {
		if err := a.Delete(tx, left, n); err != nil {
			return err
		}
	}
	if mid := values[left : len(values)-right]; len(mid) > 0 {
		return a.Insert(tx, left, mid...)
	}
	return nil
}

// sameJSON reports whether a stored value (shared types as their JSON)
// equals a caller's value as JSON.
func sameJSON(stored, v any) bool {
	if j, ok := stored.(jsonner); ok {
		stored = j.ToJSON()
	}
	n, err := normalizeValue(v, 0)
	if err != nil {
		return false
	}
	return reflect.DeepEqual(stored, jsonValue(n))
}
