// Package lib0 is the binary encoding Yjs builds on (the npm package lib0:
// encoding.js and decoding.js): variable-length integers, length-prefixed
// strings and byte arrays, and "any" values, plus the JavaScript semantics
// Yjs relies on when it re-encodes values (JSON.parse / JSON.stringify,
// object key order, number formatting).
//
// Values use this Go model of JavaScript values: nil (null), Undefined,
// bool, float64 (every JS number; the decoder yields only float64), BigInt,
// string, []any, Object (an object with its key order) and []byte
// (Uint8Array). Encoders also accept the Go integer types and
// map[string]any.
package lib0

import (
	"encoding/binary"
	"math"
)

// Encoder is a growing byte buffer with lib0's encodings.
type Encoder struct {
	Buf []byte
}

// Len is the number of bytes written.
func (e *Encoder) Len() int { return len(e.Buf) }

// Bytes returns the written bytes (not a copy).
func (e *Encoder) Bytes() []byte { return e.Buf }

// WriteUint8 writes one byte.
func (e *Encoder) WriteUint8(b byte) { e.Buf = append(e.Buf, b) }

// WriteBytes writes b as is (writeUint8Array).
func (e *Encoder) WriteBytes(b []byte) { e.Buf = append(e.Buf, b...) }

// WriteVarUint is writeVarUint: 7 bits per byte, low bits first, the high
// bit set on every byte but the last.
func (e *Encoder) WriteVarUint(n uint64) {
	for n > 0x7F {
		e.Buf = append(e.Buf, 0x80|byte(n&0x7F))
		n >>= 7
	}
	e.Buf = append(e.Buf, byte(n))
}

// WriteVarInt is writeVarInt for an integer.
func (e *Encoder) WriteVarInt(n int64) {
	if n < 0 {
		e.WriteVarIntSign(uint64(-n), true)
		return
	}
	e.WriteVarIntSign(uint64(n), false)
}

// WriteVarIntSign is writeVarInt with the sign apart from the magnitude, so
// that -0 (negative with magnitude 0) is written as lib0 writes it: the first
// byte holds a continuation bit, the sign and 6 bits, the rest 7 bits each.
func (e *Encoder) WriteVarIntSign(magnitude uint64, negative bool) {
	first := byte(magnitude & 0x3F)
	if negative {
		first |= 0x40
	}
	if magnitude > 0x3F {
		first |= 0x80
	}
	e.Buf = append(e.Buf, first)
	magnitude >>= 6
	for magnitude > 0 {
		b := byte(magnitude & 0x7F)
		if magnitude > 0x7F {
			b |= 0x80
		}
		e.Buf = append(e.Buf, b)
		magnitude >>= 7
	}
}

// WriteVarString is writeVarString: the UTF-8 byte length, then the bytes.
func (e *Encoder) WriteVarString(s string) {
	e.WriteVarUint(uint64(len(s)))
	e.Buf = append(e.Buf, s...)
}

// WriteVarBytes is writeVarUint8Array: the length, then the bytes.
func (e *Encoder) WriteVarBytes(b []byte) {
	e.WriteVarUint(uint64(len(b)))
	e.Buf = append(e.Buf, b...)
}

// WriteFloat32 writes f as a big-endian float32.
func (e *Encoder) WriteFloat32(f float32) {
	e.Buf = binary.BigEndian.AppendUint32(e.Buf, math.Float32bits(f))
}

// WriteFloat64 writes f as a big-endian float64.
func (e *Encoder) WriteFloat64(f float64) {
	e.Buf = binary.BigEndian.AppendUint64(e.Buf, math.Float64bits(f))
}

// WriteBigInt64 writes n as a big-endian int64.
func (e *Encoder) WriteBigInt64(n int64) {
	e.Buf = binary.BigEndian.AppendUint64(e.Buf, uint64(n))
}
