package main

import (
	"bufio"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"
)

// The load clients speak WebSocket (RFC 6455) themselves instead of through
// a library: a library's reader allocates each message and wakes a goroutine
// per message for its caller, which at saturation (some 170 000 frames/s)
// costs the shared 2 cores more than the frames' system calls do. A client
// reads every frame into one buffer of its own and parses it in place.

// WebSocket opcodes (RFC 6455 §5.2).
const (
	opBinary = 0x2
	opClose  = 0x8
	opPing   = 0x9
	opPong   = 0xA
)

var errFrame = errors.New("websocket: unexpected frame")

// wsGUID is the key suffix of the opening handshake (RFC 6455 §1.3).
const wsGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

// dialWS opens a TCP connection and upgrades it to WebSocket; the returned
// reader holds whatever the server sent after the handshake.
func dialWS(rawURL string, timeout time.Duration) (net.Conn, *frameReader, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, nil, err
	}
	conn, err := net.DialTimeout("tcp", u.Host, timeout)
	if err != nil {
		return nil, nil, err
	}
	_ = conn.SetDeadline(time.Now().Add(timeout))
	fr, err := handshake(conn, u)
	if err != nil {
		conn.Close()
		return nil, nil, err
	}
	_ = conn.SetDeadline(time.Time{})
	return conn, fr, nil
}

func handshake(conn net.Conn, u *url.URL) (*frameReader, error) {
	var nonce [16]byte
	_, _ = rand.Read(nonce[:])
	key := base64.StdEncoding.EncodeToString(nonce[:])
	req := fmt.Sprintf("GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"+
		"Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n", u.RequestURI(), u.Host, key)
	if _, err := io.WriteString(conn, req); err != nil {
		return nil, err
	}
	br := bufio.NewReaderSize(conn, readBufSize)
	resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodGet})
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	sum := sha1.Sum([]byte(key + wsGUID))
	if resp.StatusCode != http.StatusSwitchingProtocols || resp.Header.Get("Sec-WebSocket-Accept") != base64.StdEncoding.EncodeToString(sum[:]) {
		return nil, fmt.Errorf("websocket handshake: %s", resp.Status)
	}
	fr := &frameReader{src: conn, buf: make([]byte, readBufSize)}
	fr.end = copy(fr.buf, peekAll(br)) // bytes that came with the response
	return fr, nil
}

func peekAll(br *bufio.Reader) []byte {
	b, _ := br.Peek(br.Buffered())
	return b
}

// readBufSize is a connection's read buffer: every frame these clients get
// outside the first sync is well under it (a larger one grows it).
const readBufSize = 8 << 10

// frameReader reads frames from src through one buffer; a frame's payload
// stays valid until the next call to next.
type frameReader struct {
	src        io.Reader
	buf        []byte
	start, end int // buf[start:end] is read and not yet returned
}

// next returns the next complete frame: its opcode and payload, reading
// as much as it takes.
func (f *frameReader) next() (op byte, payload []byte, err error) {
	for {
		op, payload, ok, err := f.take()
		if ok || err != nil {
			return op, payload, err
		}
		if err := f.fill(); err != nil {
			return 0, nil, err
		}
	}
}

// take returns the next frame if the buffer holds all of it (ok). It
// accepts only what a server sends: unmasked, unfragmented frames.
func (f *frameReader) take() (op byte, payload []byte, ok bool, err error) {
	op, payload, n, err := parseFrame(f.buf[f.start:f.end])
	if n == 0 || err != nil {
		return 0, nil, false, err
	}
	f.start += n
	return op, payload, true, nil
}

// fill reads more bytes, moving an incomplete frame to the buffer's front
// (and growing the buffer if that frame would not fit).
func (f *frameReader) fill() error {
	if f.start > 0 {
		f.end = copy(f.buf, f.buf[f.start:f.end])
		f.start = 0
	}
	if want := frameSize(f.buf[:f.end]); want > len(f.buf) {
		f.buf = append(f.buf, make([]byte, want-len(f.buf))...)
	}
	n, err := f.src.Read(f.buf[f.end:])
	f.end += n
	if n > 0 {
		return nil
	}
	if err == nil {
		err = io.ErrNoProgress
	}
	return err
}

// parseFrame parses the frame at the start of b; n is 0 while b holds only
// part of it.
func parseFrame(b []byte) (op byte, payload []byte, n int, err error) {
	hdr, size, ok := frameHeader(b)
	if !ok {
		return 0, nil, 0, nil
	}
	if b[0]&0x80 == 0 || b[0]&0x70 != 0 || b[1]&0x80 != 0 {
		return 0, nil, 0, errFrame // fragmented, extension bits or masked
	}
	if len(b) < hdr+size {
		return 0, nil, 0, nil
	}
	return b[0] & 0x0f, b[hdr : hdr+size], hdr + size, nil
}

// frameHeader returns the header length and payload length of the frame b
// starts with, ok once b holds the whole header.
func frameHeader(b []byte) (hdr, size int, ok bool) {
	if len(b) < 2 {
		return 0, 0, false
	}
	switch n := b[1] & 0x7f; n {
	case 126:
		if len(b) < 4 {
			return 0, 0, false
		}
		return 4, int(binary.BigEndian.Uint16(b[2:])), true
	case 127:
		if len(b) < 10 {
			return 0, 0, false
		}
		return 10, int(binary.BigEndian.Uint64(b[2:]) & (1<<62 - 1)), true
	default:
		return 2, int(n), true
	}
}

// frameSize is the length of the frame b starts with, or of the longest
// header while b is shorter than its header.
func frameSize(b []byte) int {
	hdr, size, ok := frameHeader(b)
	if !ok {
		return 14
	}
	return hdr + size
}

// appendFrame appends a final client frame: masked with key (RFC 6455
// §5.3; any key will do for a server on loopback).
func appendFrame(dst []byte, op byte, payload []byte, key uint32) []byte {
	dst = append(dst, 0x80|op)
	switch n := len(payload); {
	case n < 126:
		dst = append(dst, 0x80|byte(n))
	case n <= 0xffff:
		dst = append(dst, 0x80|126)
		dst = binary.BigEndian.AppendUint16(dst, uint16(n))
	default:
		dst = append(dst, 0x80|127)
		dst = binary.BigEndian.AppendUint64(dst, uint64(n))
	}
	var mask [4]byte
	binary.BigEndian.PutUint32(mask[:], key)
	dst = append(dst, mask[:]...)
	for i, c := range payload {
		dst = append(dst, c^mask[i&3])
	}
	return dst
}
