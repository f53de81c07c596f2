package gateway

import (
	"encoding/hex"
	"testing"
)

// FuzzAppendHex holds appendHex to hex.AppendEncode for any input and any
// prefix already in the buffer.
func FuzzAppendHex(f *testing.F) {
	for _, s := range []string{"", "\x00", "\xff\xff\xff\xff", "\x0a\xf9\x90\x09\x12", "0123456789abcdef01234567"} {
		f.Add([]byte("traceparent: 00-"), []byte(s))
	}
	f.Fuzz(func(t *testing.T, prefix, src []byte) {
		got := appendHex(append([]byte(nil), prefix...), src)
		want := hex.AppendEncode(append([]byte(nil), prefix...), src)
		if string(got) != string(want) {
			t.Fatalf("appendHex(%x) = %q, want %q", src, got, want)
		}
	})
}
