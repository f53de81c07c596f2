package yjs

import (
	"testing"
	"time"
)

// The fuzz targets feed arbitrary bytes to everything that decodes updates:
// a malformed update must be an error, never a panic, a hang or an
// allocation beyond what the input can describe. make test runs them on the
// seed corpus (testdata/fuzz); go test -fuzz explores further.

// fuzzBase is a document with content of every kind, so that fuzzed
// updates can refer to existing structs.
func fuzzBase(t testing.TB) *Doc {
	d := NewDoc(7)
	_, err := d.Transact(func(tx *Tx) error {
		text := d.Text("t")
		if err := text.Insert(tx, 0, "hello 👍 world", map[string]any{"bold": true}); err != nil {
			return err
		}
		if err := text.InsertEmbed(tx, 3, map[string]any{"img": "x"}, nil); err != nil {
			return err
		}
		m := d.Map("m")
		if err := m.Set(tx, "a", []any{1, "x", nil}); err != nil {
			return err
		}
		if err := m.Set(tx, "n", NewText("nested")); err != nil {
			return err
		}
		x := d.XmlFragment("x")
		el, err := x.InsertElement(tx, 0, "paragraph")
		if err != nil {
			return err
		}
		return el.SetAttribute(tx, "level", 2)
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.Transact(func(tx *Tx) error { return d.Text("t").Delete(tx, 2, 4) })
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func fuzzSeeds(f *testing.F) {
	d := fuzzBase(f)
	state, err := d.EncodeStateAsUpdate(nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(state)
	f.Add([]byte{0, 0})
	f.Add([]byte{1, 1, 5, 0, 4, 1, 1, 't', 1, 'x', 0})
}

func FuzzApplyUpdate(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, update []byte) {
		defer tooSlow(t, time.Now())
		for _, d := range []*Doc{NewDoc(1), fuzzBase(t)} {
			if err := d.ApplyUpdate(update); err != nil {
				continue
			}
			// what was applied encodes, and a fresh peer loads it
			state, err := d.EncodeStateAsUpdate(nil)
			if err != nil {
				t.Fatalf("encode after apply: %v", err)
			}
			peer := NewDoc(2)
			if err := peer.ApplyUpdate(state); err != nil {
				t.Fatalf("reload: %v", err)
			}
			readAll(d)
		}
		d := NewDoc(3)
		_ = d.ApplyUpdateV2(update)
		readAll(d)
	})
}

func FuzzDecodeUpdate(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, update []byte) {
		defer tooSlow(t, time.Now())
		base, _ := fuzzBase(t).EncodeStateAsUpdate(nil)
		if merged, err := MergeUpdates(update, base); err == nil {
			if _, err := EncodeStateVectorFromUpdate(merged); err != nil {
				t.Fatalf("state vector of a merge: %v", err)
			}
		}
		_, _ = MergeUpdates(base, update, update)
		_, _ = DiffUpdate(update, []byte{1, 7, 3})
		_, _ = DiffUpdate(base, update)
		_, _ = EncodeStateVectorFromUpdate(update)
		_, _ = ConvertUpdateV2ToV1(update)
		_, _ = DecodeStateVector(update)
	})
}

// tooSlow fails an input that takes seconds: a hang in the making.
func tooSlow(t *testing.T, start time.Time) {
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("input took %v", d)
	}
}

// readAll reads every root of d in every way.
func readAll(d *Doc) {
	for _, name := range d.Roots() {
		b := d.share[name]
		_ = (*Text)(b).String()
		_ = (*Text)(b).Delta()
		_ = (*Map)(b).ToJSON()
		_ = (*Array)(b).ToJSON()
		_ = (*XmlFragment)(b).ToString()
		_ = (*XmlText)(b).ToString()
	}
}
