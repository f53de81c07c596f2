package yjs

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// Unit tests for the parts where a differential test would show that
// something differs but not where: search markers, splitting and merging,
// garbage collection, pending structs, rollback.

func mustTransact(t *testing.T, d *Doc, fn func(tx *Tx) error) []byte {
	t.Helper()
	u, err := d.Transact(fn)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// checkMarkers verifies that every search marker points at an item whose
// position in the sequence is the marker's index.
func checkMarkers(t *testing.T, b *branch) {
	t.Helper()
	if b.markers == nil {
		return
	}
	for _, m := range b.markers.list {
		index := 0
		found := false
		for n := b.start; n != nil; n = n.right {
			if n == m.p {
				found = true
				break
			}
			if !n.deleted() && n.countable() {
				index += int(n.length)
			}
		}
		if !found {
			t.Fatalf("marker points at an item not in the sequence")
		}
		if index != m.index {
			t.Fatalf("marker index %d, item is at %d", m.index, index)
		}
	}
}

func TestSearchMarkersFollowEdits(t *testing.T) {
	t.Parallel()
	d := NewDoc(1)
	text := d.Text("t")
	var model []rune
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 3000; i++ {
		mustTransact(t, d, func(tx *Tx) error {
			if len(model) > 0 && rnd.IntN(3) == 0 {
				at := rnd.IntN(len(model))
				n := 1 + rnd.IntN(min(5, len(model)-at))
				model = append(model[:at], model[at+n:]...)
				return text.Delete(tx, at, n)
			}
			at := rnd.IntN(len(model) + 1)
			s := string(rune('a' + rnd.IntN(26)))
			model = append(model[:at], append([]rune(s), model[at:]...)...)
			return text.Insert(tx, at, s, nil)
		})
		checkMarkers(t, (*branch)(text))
	}
	if got := text.String(); got != string(model) {
		t.Fatalf("text %q, want %q", got, string(model))
	}
	if n := len(text.markers.list); n == 0 || n > maxSearchMarkers {
		t.Fatalf("%d markers", n)
	}
}

func TestTypingMergesIntoOneItem(t *testing.T) {
	t.Parallel()
	d := NewDoc(1)
	text := d.Text("t")
	for i, c := range "hello" {
		mustTransact(t, d, func(tx *Tx) error { return text.Insert(tx, i, string(c), nil) })
	}
	if n := len(d.store.structsOf(1)); n != 1 {
		t.Fatalf("%d structs after typing, want 1 merged item", n)
	}
	// typing in the middle splits the item; the parts do not merge back
	// around the new item, which is not their continuation
	mustTransact(t, d, func(tx *Tx) error { return text.Insert(tx, 2, "X", nil) })
	structs := d.store.structsOf(1)
	if len(structs) != 3 || text.String() != "heXllo" {
		t.Fatalf("%d structs, text %q", len(structs), text.String())
	}
	if structs[0].length != 2 || structs[1].length != 3 || structs[2].length != 1 {
		t.Fatalf("lengths %d %d %d, want 2 3 1 (he, llo, X by clock)", structs[0].length, structs[1].length, structs[2].length)
	}
	// deleting everything keeps the three items (he and llo are not
	// neighbours in the text; yjs keeps 3 too) but drops their content
	mustTransact(t, d, func(tx *Tx) error { return text.Delete(tx, 0, 6) })
	structs = d.store.structsOf(1)
	if len(structs) != 3 {
		t.Fatalf("%d structs after deleting all, want 3", len(structs))
	}
	for _, it := range structs {
		if _, ok := it.content.(*contentDeleted); !ok || !it.deleted() {
			t.Fatalf("deleted item keeps %T", it.content)
		}
	}
	// typing again after the deleted items continues no merge
	mustTransact(t, d, func(tx *Tx) error { return text.Insert(tx, 0, "ab", nil) })
	if n := len(d.store.structsOf(1)); n != 4 {
		t.Fatalf("%d structs, want 4", n)
	}
}

func TestSplitSurrogatePair(t *testing.T) {
	t.Parallel()
	d := NewDoc(1)
	text := d.Text("t")
	mustTransact(t, d, func(tx *Tx) error { return text.Insert(tx, 0, "a👍b", nil) })
	if text.Len() != 4 {
		t.Fatalf("length %d, want 4 UTF-16 units", text.Len())
	}
	// inserting between the halves of the emoji replaces both by U+FFFD,
	// as Yjs does
	mustTransact(t, d, func(tx *Tx) error { return text.Insert(tx, 2, "x", nil) })
	if got := text.String(); got != "a\uFFFDx\uFFFDb" {
		t.Fatalf("text %q", got)
	}
}

func TestGCDropsDeletedContent(t *testing.T) {
	t.Parallel()
	for _, gc := range []bool{true, false} {
		d := NewDoc(1)
		d.SetGC(gc)
		m := d.Map("m")
		mustTransact(t, d, func(tx *Tx) error { return m.Set(tx, "t", NewText(strings.Repeat("x", 1000))) })
		before, _ := d.EncodeStateAsUpdate(nil)
		mustTransact(t, d, func(tx *Tx) error { return m.Delete(tx, "t") })
		after, _ := d.EncodeStateAsUpdate(nil)
		if gc && len(after) > 100 {
			t.Fatalf("gc: state is %d bytes after deleting the text (was %d)", len(after), len(before))
		}
		if !gc && len(after) < 1000 {
			t.Fatalf("no gc: state lost the deleted text (%d bytes)", len(after))
		}
		if gc {
			// the text's items became a GC struct: nothing refers to them
			structs := d.store.structsOf(1)
			if !structs[len(structs)-1].isGC() {
				t.Fatalf("nested items of a deleted type are not GC structs")
			}
		}
		// either way a fresh peer reads the same
		peer := NewDoc(2)
		if err := peer.ApplyUpdate(after); err != nil {
			t.Fatal(err)
		}
		if _, ok := peer.Map("m").Get("t"); ok {
			t.Fatalf("deleted key reads back")
		}
	}
}

func TestPendingStructsAndDeletes(t *testing.T) {
	t.Parallel()
	a := NewDoc(1)
	ta := a.Text("t")
	u1 := mustTransact(t, a, func(tx *Tx) error { return ta.Insert(tx, 0, "abc", nil) })
	u2 := mustTransact(t, a, func(tx *Tx) error { return ta.Insert(tx, 3, "def", nil) })
	u3 := mustTransact(t, a, func(tx *Tx) error { return ta.Delete(tx, 1, 3) })

	b := NewDoc(2)
	for _, u := range [][]byte{u3, u2} {
		if err := b.ApplyUpdate(u); err != nil {
			t.Fatal(err)
		}
	}
	if got := b.Text("t").String(); got != "" || !b.HasPending() {
		t.Fatalf("before the first update: text %q, pending %v", got, b.HasPending())
	}
	// the state of b includes what waits, as Yjs's encodeStateAsUpdate
	pending, err := b.EncodeStateAsUpdate(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.ApplyUpdate(u1); err != nil {
		t.Fatal(err)
	}
	if got := b.Text("t").String(); got != "aef" || b.HasPending() {
		t.Fatalf("after all updates: text %q, pending %v", got, b.HasPending())
	}
	// a peer given b's earlier state and u1 gets there too
	c := NewDoc(3)
	for _, u := range [][]byte{pending, u1} {
		if err := c.ApplyUpdate(u); err != nil {
			t.Fatal(err)
		}
	}
	if got := c.Text("t").String(); got != "aef" {
		t.Fatalf("peer text %q", got)
	}
	if !bytes.Equal(b.StateVector(), a.StateVector()) {
		t.Fatalf("state vectors differ")
	}
}

func TestRollbackKeepsNothing(t *testing.T) {
	t.Parallel()
	build := func() *Doc {
		d := NewDoc(1)
		mustTransact(t, d, func(tx *Tx) error {
			if err := d.Text("t").Insert(tx, 0, "hello world", map[string]any{"bold": true}); err != nil {
				return err
			}
			if err := d.Map("m").Set(tx, "k", 1); err != nil {
				return err
			}
			return d.Array("a").Insert(tx, 0, 1, 2, 3)
		})
		return d
	}
	d, twin := build(), build()
	stateBefore, _ := d.EncodeStateAsUpdate(nil)
	_, err := d.Transact(func(tx *Tx) error {
		text := d.Text("t")
		if err := text.Insert(tx, 5, ",", nil); err != nil {
			return err
		}
		if err := text.Delete(tx, 0, 3); err != nil {
			return err
		}
		if err := text.Format(tx, 0, 4, map[string]any{"italic": true}); err != nil {
			return err
		}
		if err := d.Map("m").Set(tx, "k", NewArray(1, 2)); err != nil {
			return err
		}
		if err := d.Array("a").Delete(tx, 1, 2); err != nil {
			return err
		}
		return d.Array("a").Insert(tx, 9, "out of range")
	})
	if err == nil {
		t.Fatal("want the out-of-range error")
	}
	stateAfter, _ := d.EncodeStateAsUpdate(nil)
	if !bytes.Equal(stateBefore, stateAfter) {
		t.Fatalf("state changed by a failed transaction")
	}
	// the next edit is the same update as on a document that never saw
	// the failed transaction
	edit := func(d *Doc) []byte {
		return mustTransact(t, d, func(tx *Tx) error { return d.Text("t").Insert(tx, 6, "big ", nil) })
	}
	if a, b := edit(d), edit(twin); !bytes.Equal(a, b) {
		t.Fatalf("update after rollback differs\n%x\n%x", a, b)
	}
	if d.Text("t").String() != twin.Text("t").String() {
		t.Fatalf("text differs")
	}
}

func TestRemoteUpdateWithOwnClientIDChangesIt(t *testing.T) {
	t.Parallel()
	a, b := NewDoc(5), NewDoc(5)
	u := mustTransact(t, a, func(tx *Tx) error { return a.Text("t").Insert(tx, 0, "x", nil) })
	if err := b.ApplyUpdate(u); err != nil {
		t.Fatal(err)
	}
	if b.ClientID() == 5 {
		t.Fatal("client id kept although another peer uses it")
	}
}

func TestMalformedUpdateChangesNothing(t *testing.T) {
	t.Parallel()
	d := NewDoc(1)
	u := mustTransact(t, d, func(tx *Tx) error { return d.Text("t").Insert(tx, 0, "abc", nil) })
	peer := NewDoc(2)
	for cut := 1; cut < len(u); cut++ {
		if err := peer.ApplyUpdate(u[:cut]); err == nil {
			t.Fatalf("truncated update (%d of %d bytes) applied", cut, len(u))
		}
	}
	if _, ok := peer.Root("t"); ok || peer.HasPending() {
		t.Fatal("a malformed update changed the document")
	}
}
