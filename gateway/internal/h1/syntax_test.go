package h1

import (
	"strings"
	"testing"
)

// plainValue, a word at a time, answers as valueByte does byte by byte:
// for every byte value at every position of a value long enough to take
// the word path, and for fuzzed values.
func TestPlainValueIsValueByte(t *testing.T) {
	for c := range 256 {
		for pos := range 19 {
			v := []byte(strings.Repeat("a", 19))
			v[pos] = byte(c)
			if got := plainValue(string(v)); got != valueByte[c] {
				t.Fatalf("byte %#x at %d: plainValue %v, valueByte %v", c, pos, got, valueByte[c])
			}
		}
	}
}

func FuzzPlainValue(f *testing.F) {
	for _, s := range []string{"", "application/json", "a\tb c", "0123456789abcdef\x7f", "\x80\x1f", "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		want := true
		for i := 0; i < len(v); i++ {
			want = want && valueByte[v[i]]
		}
		if got := plainValue(v); got != want {
			t.Fatalf("plainValue(%q) = %v, want %v", v, got, want)
		}
	})
}
