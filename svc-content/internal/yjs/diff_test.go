package yjs

import (
	"reflect"
	"testing"
)

// sync2 exchanges what a and b miss of each other.
func sync2(t *testing.T, a, b *Doc) {
	t.Helper()
	for _, p := range [][2]*Doc{{a, b}, {b, a}} {
		u, err := p[0].EncodeStateAsUpdate(p[1].StateVector())
		if err != nil {
			t.Fatal(err)
		}
		if err := p[1].ApplyUpdate(u); err != nil {
			t.Fatal(err)
		}
	}
}

// A replacement written with the Set* helpers touches only what changed,
// so a peer's concurrent edit to the rest survives and nothing doubles.
func TestSetHelpersKeepWhatStays(t *testing.T) {
	t.Parallel()
	a, b := NewDoc(1), NewDoc(2)
	mustTransact(t, a, func(tx *Tx) error {
		if err := a.Text("t").Insert(tx, 0, "hello world", nil); err != nil {
			return err
		}
		if err := a.Map("m").SetJSON(tx, map[string]any{"x": 1, "z": 3}); err != nil {
			return err
		}
		return a.Array("a").SetJSON(tx, []any{1, 2, 3})
	})
	sync2(t, a, b)
	// b edits concurrently ...
	mustTransact(t, b, func(tx *Tx) error {
		if err := b.Text("t").Insert(tx, 0, "oh, ", nil); err != nil {
			return err
		}
		if err := b.Map("m").Set(tx, "x", 5); err != nil {
			return err
		}
		return b.Array("a").Push(tx, 4)
	})
	// ... while a replaces the content
	update := mustTransact(t, a, func(tx *Tx) error {
		if err := a.Text("t").SetString(tx, "hello brave world"); err != nil {
			return err
		}
		if err := a.Map("m").SetJSON(tx, map[string]any{"x": 1, "y": 2}); err != nil {
			return err
		}
		return a.Array("a").SetJSON(tx, []any{1, 9, 3})
	})
	if len(update) > 60 {
		t.Errorf("replacement update is %d bytes: more than the change", len(update))
	}
	sync2(t, a, b)
	for _, d := range []*Doc{a, b} {
		if got := d.Text("t").String(); got != "oh, hello brave world" {
			t.Errorf("text %q", got)
		}
		if got := d.Map("m").ToJSON(); !reflect.DeepEqual(got, map[string]any{"x": 5.0, "y": 2.0}) {
			t.Errorf("map %v", got)
		}
		if got := d.Array("a").ToJSON(); !reflect.DeepEqual(got, []any{1.0, 9.0, 3.0, 4.0}) {
			t.Errorf("array %v", got)
		}
	}
}

func TestSetStringKeepsSurrogatePairs(t *testing.T) {
	t.Parallel()
	d := NewDoc(1)
	text := d.Text("t")
	mustTransact(t, d, func(tx *Tx) error { return text.Insert(tx, 0, "a👍b", nil) })
	// 👍 and 👎 share their high surrogate: the diff must not cut there
	mustTransact(t, d, func(tx *Tx) error { return text.SetString(tx, "a👎b") })
	if got := text.String(); got != "a👎b" {
		t.Fatalf("text %q", got)
	}
}
