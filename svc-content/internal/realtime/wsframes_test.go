package realtime

import (
	"bytes"
	"errors"
	"testing"
)

// clientFrame is one masked frame as a client writes it.
func clientFrame(fin bool, op byte, payload []byte) []byte {
	b0 := op
	if fin {
		b0 |= 0x80
	}
	mask := [4]byte{1, 2, 3, 4}
	var f []byte
	switch n := len(payload); {
	case n < 126:
		f = []byte{b0, 0x80 | byte(n)}
	case n < 1<<16:
		f = []byte{b0, 0x80 | 126, byte(n >> 8), byte(n)}
	default:
		f = []byte{b0, 0x80 | 127, 0, 0, 0, 0, byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}
	}
	f = append(f, mask[:]...)
	for i, c := range payload {
		f = append(f, c^mask[i&3])
	}
	return f
}

type gotFrame struct {
	op      byte
	payload string
}

// feed gives the reader stream in pieces of step bytes, as reads would,
// and returns the frames it passed on and the error that ended it.
func feed(fr *frameReader, stream []byte, step int) ([]gotFrame, error) {
	var got []gotFrame
	record := func(op byte, p []byte) error {
		got = append(got, gotFrame{op, string(p)})
		return nil
	}
	for len(stream) > 0 {
		buf, pooled := fr.buffer()
		n := copy(buf[len(buf):cap(buf)], stream[:min(step, len(stream))])
		stream = stream[n:]
		buf = buf[:len(buf)+n]
		done, err := fr.parse(buf, record)
		if err != nil {
			return got, err
		}
		fr.keep(buf[done:], pooled)
	}
	return got, nil
}

// Frames split anywhere across reads, fragmented messages with a ping
// between their fragments, and a frame larger than one read buffer come
// out whole and in order; nothing is held once the stream is at a frame
// boundary.
func TestFrameReaderReassembles(t *testing.T) {
	big := bytes.Repeat([]byte("y"), 3*readChunk)
	var stream []byte
	stream = append(stream, clientFrame(true, opBinary, []byte("hello"))...)
	stream = append(stream, clientFrame(false, opBinary, []byte("frag"))...)
	stream = append(stream, clientFrame(true, opPing, []byte("p"))...)
	stream = append(stream, clientFrame(true, opContinuation, []byte("mented"))...)
	stream = append(stream, clientFrame(true, opBinary, big)...)
	stream = append(stream, clientFrame(true, opClose, []byte{3, 232})...)
	want := []gotFrame{{opBinary, "hello"}, {opPing, "p"}, {opBinary, "fragmented"}, {opBinary, string(big)}, {opClose, "\x03\xe8"}}
	for _, step := range []int{1, 7, 100, len(stream)} {
		fr := &frameReader{limit: 1 << 20}
		got, err := feed(fr, stream, step)
		if err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		if len(got) != len(want) {
			t.Fatalf("step %d: %d frames, want %d", step, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("step %d: frame %d is %d %.20q, want %d %.20q", step, i, got[i].op, got[i].payload, want[i].op, want[i].payload)
			}
		}
		if fr.partial != nil || fr.frag != nil {
			t.Fatalf("step %d: the reader holds %d+%d bytes at a frame boundary", step, len(fr.partial), len(fr.frag))
		}
	}
}

// What a client may not send ends reading with the close code it earns,
// before an oversized payload is read.
func TestFrameReaderRefuses(t *testing.T) {
	unmasked := clientFrame(true, opBinary, []byte("x"))
	unmasked[1] &^= 0x80
	unmasked = append(unmasked[:2], unmasked[6:]...)
	cases := []struct {
		name   string
		stream []byte
		code   int
	}{
		{"unmasked", unmasked, CloseProtocolError},
		{"over the limit", clientFrame(true, opBinary, make([]byte, 200))[:20], CloseTooBig},
		{"fragments over the limit", append(clientFrame(false, opBinary, make([]byte, 80)), clientFrame(true, opContinuation, make([]byte, 80))...), CloseTooBig},
		{"stray continuation", clientFrame(true, opContinuation, []byte("x")), CloseProtocolError},
		{"fragmented ping", clientFrame(false, opPing, nil), CloseProtocolError},
		{"reserved opcode", clientFrame(true, 0x3, nil), CloseProtocolError},
	}
	for _, tc := range cases {
		_, err := feed(&frameReader{limit: 100}, tc.stream, len(tc.stream))
		var fe *frameError
		if !errors.As(err, &fe) || fe.code != tc.code {
			t.Errorf("%s: %v, want close code %d", tc.name, err, tc.code)
		}
	}
}
