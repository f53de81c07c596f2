package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"
	"testing/iotest"
	"time"
)

// serverFrame is an unmasked final frame, as a server sends it.
func serverFrame(op byte, payload []byte) []byte {
	b := []byte{0x80 | op}
	switch n := len(payload); {
	case n < 126:
		b = append(b, byte(n))
	case n <= 0xffff:
		b = append(b, 126)
		b = binary.BigEndian.AppendUint16(b, uint16(n))
	default:
		b = append(b, 127)
		b = binary.BigEndian.AppendUint64(b, uint64(n))
	}
	return append(b, payload...)
}

func TestFrameReaderReadsEveryLengthInAnyPieces(t *testing.T) {
	var stream []byte
	var want [][]byte
	for i, n := range []int{0, 1, 125, 126, 127, 300, readBufSize + 5, 70000} {
		p := bytes.Repeat([]byte{byte(i + 1)}, n)
		want = append(want, p)
		stream = append(stream, serverFrame(opBinary, p)...)
	}
	for name, src := range map[string]io.Reader{
		"whole":       bytes.NewReader(stream),
		"byte a read": iotest.OneByteReader(bytes.NewReader(stream)),
		"half":        iotest.HalfReader(bytes.NewReader(stream)),
	} {
		fr := &frameReader{src: src, buf: make([]byte, readBufSize)}
		for i, w := range want {
			op, p, err := fr.next()
			if err != nil || op != opBinary || !bytes.Equal(p, w) {
				t.Fatalf("%s: frame %d: op %d, %d bytes, %v; want %d bytes", name, i, op, len(p), err, len(w))
			}
		}
		if _, _, err := fr.next(); err != io.EOF {
			t.Errorf("%s: after the last frame: %v, want EOF", name, err)
		}
	}
}

func TestFrameReaderRefusesWhatNoServerSends(t *testing.T) {
	for name, frame := range map[string][]byte{
		"masked":     {0x82, 0x81, 1, 2, 3, 4, 'x'},
		"fragmented": {0x02, 0x01, 'x'},
		"extension":  {0xc2, 0x01, 'x'},
	} {
		fr := &frameReader{src: bytes.NewReader(frame), buf: make([]byte, readBufSize)}
		if _, _, err := fr.next(); !errors.Is(err, errFrame) {
			t.Errorf("%s: %v, want errFrame", name, err)
		}
	}
}

func TestAppendFrameMasks(t *testing.T) {
	for _, n := range []int{0, 3, 125, 126, 70000} {
		p := bytes.Repeat([]byte("abc"), n)[:n]
		f := appendFrame(nil, opBinary, p, 0x01020304)
		hdr, size, ok := frameHeader(f)
		if !ok || size != n || f[0] != 0x82 || f[1]&0x80 == 0 || len(f) != hdr+4+n {
			t.Fatalf("%d bytes: header %x, size %d", n, f[:min(len(f), 14)], size)
		}
		mask := f[hdr : hdr+4]
		for i := range n {
			if f[hdr+4+i]^mask[i&3] != p[i] {
				t.Fatalf("%d bytes: byte %d not masked with the key", n, i)
			}
		}
	}
}

// loopReader returns its frames over and over, as a socket with relays
// always waiting would.
type loopReader struct {
	b   []byte
	off int
}

func (l *loopReader) Read(p []byte) (int, error) {
	n := copy(p, l.b[l.off:])
	l.off = (l.off + n) % len(l.b)
	return n, nil
}

// TestReceiveAllocatesNothing reads relays and acknowledgements the way
// the saturation phase does and the steady phase (latency recorded) does:
// no allocation per read of some hundred frames.
func TestReceiveAllocatesNothing(t *testing.T) {
	r := &run{epoch: time.Now()}
	sender := &client{run: r, id: idBase}
	sender.sends.start(0, 1)
	sender.sends.record(runLen, time.Millisecond)
	relay := putString(nil, "doc")
	relay = putUvarint(relay, hpSync)
	relay = putUvarint(relay, 2)
	relay = putString(relay, string(appendInsertUpdate(nil, idBase, 0, []byte("1 "))))
	ack := putUvarint(putString(nil, "doc"), hpSyncStatus)
	ack = putUvarint(ack, 1)
	src := &loopReader{b: bytes.Repeat(append(serverFrame(opBinary, relay), serverFrame(opBinary, ack)...), 50)}
	c := &client{run: r, id: idBase + 1, name: []byte("doc"), fr: &frameReader{src: src, buf: make([]byte, readBufSize)}}
	r.clients = []*client{sender, c}
	readable := func() { // one read: what the loop returns, frames split at its end
		if !c.readable() {
			t.Fatal("connection ended")
		}
	}
	for _, measuring := range []bool{false, true} {
		r.measure.Store(measuring)
		c.lat = make([]time.Duration, 0, 100000)
		readable() // the scratch of update ends grows once
		if allocs := testing.AllocsPerRun(100, readable); allocs != 0 {
			t.Errorf("measuring %v: %.0f allocations per read, want 0", measuring, allocs)
		}
	}
	if len(c.lat) == 0 {
		t.Error("no latency recorded for the relays")
	}
	if r.acked.Load() == 0 {
		t.Error("no acknowledgement counted")
	}
}
