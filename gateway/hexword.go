package gateway

import (
	"encoding/binary"
	"encoding/hex"
)

// appendHex is hex.AppendEncode four bytes at a time: the trace and span
// ids of every traceparent are 24 bytes, which hex.AppendEncode writes a
// byte at a time with two table lookups each.
func appendHex(b, src []byte) []byte {
	for len(src) >= 4 {
		b = binary.BigEndian.AppendUint64(b, hexWord(binary.BigEndian.Uint32(src)))
		src = src[4:]
	}
	return hex.AppendEncode(b, src)
}

// hexWord spreads the eight nibbles of x into the bytes of a word, most
// significant first, and makes each its lower-case hex digit.
func hexWord(x uint32) uint64 {
	n := uint64(x)
	n = (n&0xffff0000)<<16 | n&0x0000ffff
	n = (n&0x0000ff000000ff00)<<8 | n&0x000000ff000000ff
	n = (n&0x00f000f000f000f0)<<4 | n&0x000f000f000f000f
	// A nibble v becomes '0'+v, and 39 more ('a'-'0'-10) from 10 on; v+6
	// carries into bit 4 exactly when v >= 10. No byte overflows.
	letters := (n + 0x0606060606060606) >> 4 & 0x0101010101010101
	return n + 0x3030303030303030 + letters*39
}
