package legacyyjs

import (
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
)

// The expected updates were written by yjs 13.6.33 (Y.encodeStateAsUpdate)
// for a Y.Doc with the same clientID and the same edits, after its garbage
// collection: so the encoder writes exactly what Yjs writes.

func TestSetTextMatchesYjs(t *testing.T) {
	d := NewDoc(7, "content", KindText)
	got, err := d.SetText("hé👍")
	if err != nil {
		t.Fatal(err)
	}
	assertHex(t, got, "01010700040107636f6e74656e740768c3a9f09f918d00")
	if d.Clock != 4 { // "hé👍" is 4 UTF-16 code units
		t.Errorf("clock = %d, want 4", d.Clock)
	}
}

func TestSetArrayMatchesYjs(t *testing.T) {
	v, err := ParseJSON([]byte(`[1,-1,"x",null,true,false,1.5,2147483648,2147483647,-2147483647,0.1,{"a":[1]}]`))
	if err != nil {
		t.Fatal(err)
	}
	got, err := NewDoc(7, "content", KindArray).SetArray(v.([]any))
	if err != nil {
		t.Fatal(err)
	}
	assertHex(t, got, "01010700080107636f6e74656e740c7d017d417701787e78797c3fc000007c4f0000007dbfffffff0f7dffffffff0f7b3fb999999999999a7601016175017d0100")
}

func TestSetMapMatchesYjs(t *testing.T) {
	got, err := NewDoc(7, "content", KindMap).SetMap(Object{
		{Key: "a", Value: json.Number("1")},
		{Key: "b", Value: Object{{Key: "c", Value: "d"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	assertHex(t, got, "01020700280107636f6e74656e740161017d01280107636f6e74656e740162017601016377016400")
}

// Yjs: insert "ab", insert "c" after it, delete "ab".
func TestReplaceTextMatchesYjs(t *testing.T) {
	d := NewDoc(300, "content", KindText)
	mustSet(t, func() ([]byte, error) { return d.SetText("ab") })
	got := mustSet(t, func() ([]byte, error) { return d.SetText("c") })
	assertHex(t, got, "0102ac0200010107636f6e74656e740284ac0201016301ac02010002")
}

// Yjs: set a=1, b=2; then set a=3, delete b, set c=4.
func TestReplaceMapMatchesYjs(t *testing.T) {
	d := NewDoc(300, "content", KindMap)
	mustSet(t, func() ([]byte, error) {
		return d.SetMap(Object{{Key: "a", Value: json.Number("1")}, {Key: "b", Value: json.Number("2")}})
	})
	got := mustSet(t, func() ([]byte, error) {
		return d.SetMap(Object{{Key: "a", Value: json.Number("3")}, {Key: "c", Value: json.Number("4")}})
	})
	assertHex(t, got, "0104ac0200210107636f6e74656e74016101210107636f6e74656e74016201a8ac0200017d03280107636f6e74656e740163017d0401ac02010002")
}

// Yjs: insert [1,2] into array "k", insert ["x"] after, delete [1,2].
func TestReplaceArrayMatchesYjs(t *testing.T) {
	d := NewDoc(300, "k", KindArray)
	mustSet(t, func() ([]byte, error) { return d.SetArray([]any{1, 2}) })
	got := mustSet(t, func() ([]byte, error) { return d.SetArray([]any{"x"}) })
	assertHex(t, got, "0102ac02000101016b0288ac02010177017801ac02010002")
}

func TestEmptyDocument(t *testing.T) {
	got := mustSet(t, func() ([]byte, error) { return NewDoc(1, "content", KindText).SetText("") })
	assertHex(t, got, "0000")
}

func TestHistoryStaysSmall(t *testing.T) {
	d := NewDoc(9, "content", KindText)
	big := strings.Repeat("x", 10000)
	var last []byte
	for range 20 {
		last = mustSet(t, func() ([]byte, error) { return d.SetText(big) })
	}
	if len(last) > len(big)+20*16 {
		t.Fatalf("update after 20 versions is %d bytes for %d bytes of text", len(last), len(big))
	}
}

func TestFailedVersionChangesNothing(t *testing.T) {
	d := NewDoc(9, "content", KindArray)
	first := mustSet(t, func() ([]byte, error) { return d.SetArray([]any{1}) })
	before := *d
	if _, err := d.SetArray([]any{struct{}{}}); err == nil {
		t.Fatal("want error for a value Yjs cannot store")
	}
	if d.Clock != before.Clock || d.Start != before.Start || len(d.History) != len(before.History) {
		t.Fatalf("state changed by a failed version: %+v", d)
	}
	if _, err := d.SetText("x"); err == nil {
		t.Fatal("want error for the wrong kind")
	}
	again := mustSet(t, func() ([]byte, error) { return d.SetArray([]any{2}) })
	if len(again) <= len(first) {
		t.Fatal("second version not appended")
	}
}

func mustSet(t *testing.T, set func() ([]byte, error)) []byte {
	t.Helper()
	b, err := set()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func assertHex(t *testing.T, got []byte, want string) {
	t.Helper()
	if g := hex.EncodeToString(got); g != want {
		t.Fatalf("update\n got %s\nwant %s", g, want)
	}
}
