package lib0

import (
	"encoding/binary"
	"errors"
	"math"
	"unicode/utf8"
)

// Decoding errors. A decoder never reads past its input; the first error
// sticks and every later read returns a zero value.
var (
	ErrUnexpectedEnd = errors.New("lib0: unexpected end of input")
	ErrIntOutOfRange = errors.New("lib0: integer out of range")
	ErrInvalidUTF8   = errors.New("lib0: string is not valid UTF-8")
	ErrUnknownAny    = errors.New("lib0: unknown value type")
	ErrTooDeep       = errors.New("lib0: value nested too deeply")
)

// MaxSafeInteger is JavaScript's Number.MAX_SAFE_INTEGER (2^53-1): integers
// above it cannot come from a JavaScript encoder.
const MaxSafeInteger = 1<<53 - 1

// Decoder reads lib0 encodings from a byte slice.
type Decoder struct {
	buf []byte
	pos int
	err error
}

// NewDecoder reads from b (not copied).
func NewDecoder(b []byte) *Decoder { return &Decoder{buf: b} }

// Err is the first error met, if any.
func (d *Decoder) Err() error { return d.err }

// Fail records err unless an error is recorded already.
func (d *Decoder) Fail(err error) {
	if d.err == nil {
		d.err = err
	}
}

// Remaining is the number of unread bytes.
func (d *Decoder) Remaining() int { return len(d.buf) - d.pos }

// HasContent reports whether unread bytes remain.
func (d *Decoder) HasContent() bool { return d.pos < len(d.buf) }

// Pos is the read position.
func (d *Decoder) Pos() int { return d.pos }

// ReadUint8 reads one byte.
func (d *Decoder) ReadUint8() byte {
	if d.pos >= len(d.buf) {
		d.Fail(ErrUnexpectedEnd)
		return 0
	}
	b := d.buf[d.pos]
	d.pos++
	return b
}

// ReadVarUint reads a writeVarUint integer; values above MaxSafeInteger are
// an error, as lib0 refuses them.
func (d *Decoder) ReadVarUint() uint64 {
	var n uint64
	var shift uint
	for d.pos < len(d.buf) {
		b := d.buf[d.pos]
		d.pos++
		if shift > 53 || (shift > 0 && uint64(b&0x7F) > (MaxSafeInteger>>shift)) {
			d.Fail(ErrIntOutOfRange)
			return 0
		}
		n |= uint64(b&0x7F) << shift
		if b < 0x80 {
			return n
		}
		shift += 7
	}
	d.Fail(ErrUnexpectedEnd)
	return 0
}

// ReadVarIntSign reads a writeVarInt integer as magnitude and sign, so that
// -0 can be told from 0.
func (d *Decoder) ReadVarIntSign() (magnitude uint64, negative bool) {
	if d.pos >= len(d.buf) {
		d.Fail(ErrUnexpectedEnd)
		return 0, false
	}
	b := d.buf[d.pos]
	d.pos++
	n := uint64(b & 0x3F)
	negative = b&0x40 != 0
	if b < 0x80 {
		return n, negative
	}
	shift := uint(6)
	for d.pos < len(d.buf) {
		b = d.buf[d.pos]
		d.pos++
		if shift > 53 || uint64(b&0x7F) > (MaxSafeInteger>>shift) {
			d.Fail(ErrIntOutOfRange)
			return 0, false
		}
		n |= uint64(b&0x7F) << shift
		if b < 0x80 {
			return n, negative
		}
		shift += 7
	}
	d.Fail(ErrUnexpectedEnd)
	return 0, false
}

// ReadVarInt reads a writeVarInt integer (-0 reads as 0).
func (d *Decoder) ReadVarInt() int64 {
	m, neg := d.ReadVarIntSign()
	if neg {
		return -int64(m)
	}
	return int64(m)
}

// ReadBytes reads n bytes (a view on the input, not a copy).
func (d *Decoder) ReadBytes(n uint64) []byte {
	if n > uint64(len(d.buf)-d.pos) {
		d.Fail(ErrUnexpectedEnd)
		d.pos = len(d.buf)
		return nil
	}
	b := d.buf[d.pos : d.pos+int(n) : d.pos+int(n)]
	d.pos += int(n)
	return b
}

// ReadVarBytes reads a writeVarUint8Array byte array (a view, not a copy).
func (d *Decoder) ReadVarBytes() []byte { return d.ReadBytes(d.ReadVarUint()) }

// ReadVarString reads a writeVarString string; it must be valid UTF-8, as
// lib0's fatal TextDecoder demands.
func (d *Decoder) ReadVarString() string {
	b := d.ReadVarBytes()
	if !utf8.Valid(b) {
		d.Fail(ErrInvalidUTF8)
		return ""
	}
	return string(b)
}

// ReadFloat32 reads a big-endian float32.
func (d *Decoder) ReadFloat32() float32 {
	b := d.ReadBytes(4)
	if b == nil {
		return 0
	}
	return math.Float32frombits(binary.BigEndian.Uint32(b))
}

// ReadFloat64 reads a big-endian float64.
func (d *Decoder) ReadFloat64() float64 {
	b := d.ReadBytes(8)
	if b == nil {
		return 0
	}
	return math.Float64frombits(binary.BigEndian.Uint64(b))
}

// ReadBigInt64 reads a big-endian int64.
func (d *Decoder) ReadBigInt64() int64 {
	b := d.ReadBytes(8)
	if b == nil {
		return 0
	}
	return int64(binary.BigEndian.Uint64(b))
}

// Rest returns the unread bytes and consumes them.
func (d *Decoder) Rest() []byte {
	b := d.buf[d.pos:]
	d.pos = len(d.buf)
	return b
}
