package main

import (
	"encoding/binary"
	"errors"
)

// The load clients write Yjs updates by hand: each client appends one
// ASCII character run at a time to Y.Text "content", every run after its
// own previous one, which is the simplest valid update (one Item with
// ContentString). Receivers read back which client and clock an update
// ends at, to find the send time of what they received.

const textRoot = "content"

func putUvarint(b []byte, v uint64) []byte { return binary.AppendUvarint(b, v) }

func putString(b []byte, s string) []byte {
	b = putUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// appendInsertUpdate appends the v1 update of client inserting s at clock,
// after its own item ending at clock-1 (or at the start of the text for
// clock 0).
func appendInsertUpdate(b []byte, client, clock uint64, s []byte) []byte {
	b = putUvarint(b, 1) // one client
	b = putUvarint(b, 1) // one struct
	b = putUvarint(b, client)
	b = putUvarint(b, clock)
	if clock == 0 {
		b = append(b, 4) // Item, ContentString, no origins: parent follows
		b = putUvarint(b, 1)
		b = putString(b, textRoot)
	} else {
		b = append(b, 4|0x80) // origin: our previous character
		b = putUvarint(b, client)
		b = putUvarint(b, clock-1)
	}
	b = putUvarint(b, uint64(len(s)))
	b = append(b, s...)
	return putUvarint(b, 0) // empty delete set
}

var errUpdate = errors.New("unexpected update shape")

// appendUpdateEnds appends (client, clock after the last struct) of an
// update made of strings, GC and Skip structs (what relays of
// appendInsertUpdate contain) to out.
func appendUpdateEnds(out [][2]uint64, u []byte) ([][2]uint64, error) {
	r := reader{b: u}
	n := r.uvarint()
	for i := uint64(0); i < n && r.err == nil; i++ {
		structs, client, clock := r.uvarint(), r.uvarint(), r.uvarint()
		for j := uint64(0); j < structs && r.err == nil; j++ {
			clock += r.structLen()
		}
		out = append(out, [2]uint64{client, clock})
	}
	return out, r.err
}

type reader struct {
	b   []byte
	err error
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errUpdate
		return 0
	}
	r.b = r.b[n:]
	return v
}

// bytes reads a length-prefixed string in place.
func (r *reader) bytes() []byte {
	n := r.uvarint()
	if r.err != nil || uint64(len(r.b)) < n {
		r.err = errUpdate
		return nil
	}
	s := r.b[:n]
	r.b = r.b[n:]
	return s
}

// structLen reads one struct and returns its clock length.
func (r *reader) structLen() uint64 {
	if len(r.b) == 0 {
		r.err = errUpdate
		return 0
	}
	info := r.b[0]
	r.b = r.b[1:]
	switch info & 0x1f {
	case 0, 10: // GC, Skip
		return r.uvarint()
	case 4:
	default:
		r.err = errUpdate
		return 0
	}
	if info&0x80 != 0 {
		r.uvarint()
		r.uvarint()
	}
	if info&0x40 != 0 {
		r.uvarint()
		r.uvarint()
	}
	if info&0xc0 == 0 {
		if r.uvarint() == 1 {
			r.bytes()
		} else {
			r.uvarint()
			r.uvarint()
		}
	}
	if info&0x20 != 0 {
		r.bytes()
	}
	return uint64(len(r.bytes())) // ASCII: one clock a byte
}
