package realtime

import (
	"encoding/binary"
	"sync"
)

// WebSocket opcodes (RFC 6455 §5.2).
const (
	opContinuation = 0x0
	opText         = 0x1
	opBinary       = 0x2
	opClose        = 0x8
	opPing         = 0x9
	opPong         = 0xA
)

// CloseProtocolError answers a frame that breaks RFC 6455.
const CloseProtocolError = 1002

// frameError ends reading with a close frame of code.
type frameError struct {
	code   int
	reason string
}

func (e *frameError) Error() string { return e.reason }

// frameReader parses a client's frames as they arrive (RFC 6455 §5), in
// place of a WebSocket library's blocking reader: between reads it holds
// only the bytes of an incomplete frame and of a fragmented message, so an
// idle connection holds nothing. One read runs at a time (no lock).
type frameReader struct {
	limit   int64  // the largest message
	partial []byte // the start of an incomplete frame; nil at a frame boundary
	frag    []byte // the payload of a fragmented message so far
	fragOp  byte   // its opcode; 0 when no message is fragmented
}

// readChunk is the pooled buffer one read fills (frames that do not fit
// are read into a buffer of their own size).
const readChunk = 8 << 10

var readBufs = sync.Pool{New: func() any { b := make([]byte, readChunk); return &b }}

// buffer returns where the next read goes: after the incomplete frame's
// bytes, or a pooled buffer (returned by keep).
func (fr *frameReader) buffer() (buf []byte, pooled *[]byte) {
	if fr.partial != nil {
		return fr.partial, nil
	}
	p := readBufs.Get().(*[]byte)
	return (*p)[:0], p
}

// keep holds rest, an incomplete frame, for the next read (in a buffer
// the size of that frame), and returns the pooled buffer.
func (fr *frameReader) keep(rest []byte, pooled *[]byte) {
	switch {
	case len(rest) == 0:
		fr.partial = nil
	case pooled == nil && cap(fr.partial) >= fr.frameSize(rest):
		fr.partial = fr.partial[:copy(fr.partial[:cap(fr.partial)], rest)]
	default:
		p := make([]byte, len(rest), fr.frameSize(rest))
		copy(p, rest)
		fr.partial = p
	}
	if pooled != nil {
		readBufs.Put(pooled)
	}
}

// frameSize is the size of the frame b starts (a header's worth more than
// b while its header is incomplete); more than len(b) for an incomplete
// frame.
func (fr *frameReader) frameSize(b []byte) int {
	h, ok, _ := parseHeader(b)
	if !ok {
		return len(b) + maxHeader
	}
	return h.size + int(h.payload)
}

// parse handles the complete frames at the start of b (unmasking them in
// place): control frames and whole messages go to fn, whose payload is
// valid only during the call. It returns how much of b it consumed.
func (fr *frameReader) parse(b []byte, fn func(op byte, payload []byte) error) (int, error) {
	done := 0
	for {
		h, ok, err := parseHeader(b[done:])
		if err != nil {
			return done, err
		}
		if !ok {
			return done, nil
		}
		if err := fr.check(h); err != nil {
			return done, err
		}
		end := done + h.size + int(h.payload)
		if end > len(b) {
			return done, nil
		}
		payload := b[done+h.size : end]
		unmask(payload, h.mask)
		done = end
		if err := fr.frame(h, payload, fn); err != nil {
			return done, err
		}
	}
}

// check refuses what RFC 6455 forbids a client and what exceeds the limit.
func (fr *frameReader) check(h frameHeader) error {
	switch {
	case !h.masked:
		return &frameError{CloseProtocolError, "client frames must be masked"}
	case h.op >= opClose && (!h.fin || h.payload > 125):
		return &frameError{CloseProtocolError, "malformed control frame"}
	case h.op > opBinary && h.op < opClose, h.op > opPong:
		return &frameError{CloseProtocolError, "unknown opcode"}
	case h.op == opContinuation && fr.fragOp == 0:
		return &frameError{CloseProtocolError, "continuation without a message"}
	case (h.op == opText || h.op == opBinary) && fr.fragOp != 0:
		return &frameError{CloseProtocolError, "new message inside a fragmented one"}
	case h.op < opClose && int64(len(fr.frag))+int64(h.payload) > fr.limit:
		return &frameError{CloseTooBig, "message too big"}
	}
	return nil
}

// frame passes on a complete frame, gathering fragmented messages.
func (fr *frameReader) frame(h frameHeader, payload []byte, fn func(byte, []byte) error) error {
	switch {
	case h.op >= opClose || (h.fin && h.op != opContinuation):
		return fn(h.op, payload)
	case h.op != opContinuation: // the first fragment
		fr.fragOp = h.op
		fr.frag = append([]byte(nil), payload...)
		return nil
	}
	fr.frag = append(fr.frag, payload...)
	if !h.fin {
		return nil
	}
	op, msg := fr.fragOp, fr.frag
	fr.fragOp, fr.frag = 0, nil
	return fn(op, msg)
}

// frameHeader is a parsed frame header.
type frameHeader struct {
	fin, masked bool
	op          byte
	size        int    // header bytes
	payload     uint64 // payload bytes
	mask        [4]byte
}

// maxHeader is the longest frame header.
const maxHeader = 14

// parseHeader reads the header b starts with; ok false while incomplete.
func parseHeader(b []byte) (h frameHeader, ok bool, err error) {
	if len(b) < 2 {
		return h, false, nil
	}
	if b[0]&0x70 != 0 {
		return h, false, &frameError{CloseProtocolError, "reserved bits set (no extension was agreed)"}
	}
	h.fin, h.op, h.masked = b[0]&0x80 != 0, b[0]&0x0f, b[1]&0x80 != 0
	h.size, h.payload = 2, uint64(b[1]&0x7f)
	switch h.payload {
	case 126:
		if len(b) < 4 {
			return h, false, nil
		}
		h.size, h.payload = 4, uint64(binary.BigEndian.Uint16(b[2:]))
	case 127:
		if len(b) < 10 {
			return h, false, nil
		}
		h.size, h.payload = 10, binary.BigEndian.Uint64(b[2:])
		if h.payload > 1<<62 {
			return h, false, &frameError{CloseTooBig, "message too big"}
		}
	}
	if h.masked {
		if len(b) < h.size+4 {
			return h, false, nil
		}
		copy(h.mask[:], b[h.size:])
		h.size += 4
	}
	return h, true, nil
}

func unmask(b []byte, mask [4]byte) {
	for i := range b {
		b[i] ^= mask[i&3]
	}
}
