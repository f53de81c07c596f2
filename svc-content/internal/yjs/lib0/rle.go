package lib0

import (
	"errors"
	"unicode/utf8"
)

// The run-length decoders of lib0 that the Yjs v2 update format uses, one
// per column. Each reads from its own byte slice; when that is used up the
// last value repeats, as in lib0.

// RleByteDecoder is RleDecoder with readUint8 values.
type RleByteDecoder struct {
	d     *Decoder
	s     byte
	count int64 // -1: repeat s forever
}

// NewRleByteDecoder reads from b.
func NewRleByteDecoder(b []byte) *RleByteDecoder { return &RleByteDecoder{d: NewDecoder(b)} }

// Err is the first error of the column.
func (r *RleByteDecoder) Err() error { return r.d.err }

// Read returns the next value.
func (r *RleByteDecoder) Read() byte {
	if r.count == 0 {
		r.s = r.d.ReadUint8()
		if r.d.HasContent() {
			r.count = int64(r.d.ReadVarUint()) + 1
		} else {
			r.count = -1
		}
	}
	if r.count > 0 {
		r.count--
	}
	return r.s
}

// UintOptRleDecoder is lib0's UintOptRleDecoder: a value, negated (as a
// varInt) when a repeat count follows.
type UintOptRleDecoder struct {
	d     *Decoder
	s     uint64
	count uint64
}

// NewUintOptRleDecoder reads from b.
func NewUintOptRleDecoder(b []byte) *UintOptRleDecoder { return &UintOptRleDecoder{d: NewDecoder(b)} }

// Err is the first error of the column.
func (r *UintOptRleDecoder) Err() error { return r.d.err }

// Read returns the next value.
func (r *UintOptRleDecoder) Read() uint64 {
	if r.count == 0 {
		m, neg := r.d.ReadVarIntSign()
		r.s = m
		r.count = 1
		if neg {
			r.count = r.d.ReadVarUint() + 2
		}
	}
	r.count--
	return r.s
}

// IntDiffOptRleDecoder is lib0's IntDiffOptRleDecoder: differences to the
// previous value, the low bit telling whether a repeat count follows.
type IntDiffOptRleDecoder struct {
	d     *Decoder
	s     int64
	count uint64
	diff  int64
}

// NewIntDiffOptRleDecoder reads from b.
func NewIntDiffOptRleDecoder(b []byte) *IntDiffOptRleDecoder {
	return &IntDiffOptRleDecoder{d: NewDecoder(b)}
}

// Err is the first error of the column.
func (r *IntDiffOptRleDecoder) Err() error { return r.d.err }

// Read returns the next value.
func (r *IntDiffOptRleDecoder) Read() int64 {
	if r.count == 0 {
		diff := r.d.ReadVarInt()
		hasCount := diff&1 != 0
		r.diff = diff >> 1 // floor(diff / 2), also for negative diffs
		r.count = 1
		if hasCount {
			r.count = r.d.ReadVarUint() + 2
		}
	}
	r.s += r.diff
	r.count--
	return r.s
}

// errSplitSurrogate is a v2 string column that cuts a character outside the
// BMP in half, which no Yjs encoder writes.
var errSplitSurrogate = errors.New("lib0: string slice splits a surrogate pair")

// StringDecoder is lib0's StringDecoder: one string holding every value, and
// the values' lengths in UTF-16 code units.
type StringDecoder struct {
	lens *UintOptRleDecoder
	str  string
	pos  int // byte offset of the next value
	err  error
}

// NewStringDecoder reads from b.
func NewStringDecoder(b []byte) *StringDecoder {
	lens := NewUintOptRleDecoder(b)
	s := &StringDecoder{lens: lens}
	s.str = lens.d.ReadVarString()
	return s
}

// Err is the first error of the column.
func (s *StringDecoder) Err() error {
	if s.err != nil {
		return s.err
	}
	return s.lens.Err()
}

// Read returns the next value.
func (s *StringDecoder) Read() string {
	n := s.lens.Read()
	start := s.pos
	for n > 0 && s.pos < len(s.str) {
		r, size := utf8.DecodeRuneInString(s.str[s.pos:])
		units := uint64(1)
		if r >= 0x10000 {
			units = 2
		}
		if units > n {
			s.err = errSplitSurrogate
			return ""
		}
		n -= units
		s.pos += size
	}
	return s.str[start:s.pos]
}
