package yjs

import (
	"unicode/utf16"
	"unicode/utf8"
)

// contentString is ContentString: UTF-8 text whose length counts UTF-16
// code units, as JavaScript strings do. s may have spare capacity that
// merging appends into; splitting caps the left part so that it never
// writes into the right part's bytes.
type contentString struct {
	s     []byte
	units uint64
}

func newContentString(b []byte) *contentString {
	return &contentString{s: b, units: utf16Len(b)}
}

func (c *contentString) ref() byte       { return refContentString }
func (c *contentString) length() uint64  { return c.units }
func (c *contentString) countable() bool { return true }

// splice splits at a UTF-16 offset. A split between the halves of a
// surrogate pair replaces each half with U+FFFD, as Yjs does.
func (c *contentString) splice(offset uint64) content {
	at, mid := byteOffset(c.s, c.units, offset)
	if !mid {
		right := &contentString{s: c.s[at:], units: c.units - offset}
		c.s, c.units = c.s[:at:at], offset
		return right
	}
	// c.s[at:] starts with the 4-byte character whose halves are cut.
	_, size := utf8.DecodeRune(c.s[at:])
	right := &contentString{s: append([]byte("\uFFFD"), c.s[at+size:]...), units: c.units - offset}
	c.s = append(c.s[:at:at], "\uFFFD"...)
	c.units = offset
	return right
}

func (c *contentString) mergeWith(right content) bool {
	r := right.(*contentString)
	c.s = append(c.s, r.s...)
	c.units += r.units
	return true
}

func (c *contentString) write(e updateEncoder, offset uint64) {
	if offset == 0 {
		e.writeStringBytes(c.s)
		return
	}
	at, mid := byteOffset(c.s, c.units, offset)
	if !mid {
		e.writeStringBytes(c.s[at:])
		return
	}
	// JavaScript would write a lone low surrogate, which TextEncoder turns
	// into U+FFFD.
	_, size := utf8.DecodeRune(c.s[at:])
	e.writeStringBytes(append([]byte("\uFFFD"), c.s[at+size:]...))
}

// utf16Len is the JavaScript length of UTF-8 text.
func utf16Len(b []byte) uint64 {
	n := uint64(0)
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			n++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		i += size
		n += uint64(utf16.RuneLen(r))
	}
	return n
}

// byteOffset finds the byte offset of UTF-16 offset off in b (units long).
// mid reports that off falls between the two halves of a surrogate pair;
// the offset is then that of the 4-byte character.
func byteOffset(b []byte, units, off uint64) (at int, mid bool) {
	if units == uint64(len(b)) { // ASCII only
		return int(off), false
	}
	var n uint64
	for i := 0; i < len(b); {
		if n == off {
			return i, false
		}
		r, size := utf8.DecodeRune(b[i:])
		if r >= 0x10000 {
			if n+1 == off {
				return i, true
			}
			n += 2
		} else {
			n++
		}
		i += size
	}
	return len(b), false
}
