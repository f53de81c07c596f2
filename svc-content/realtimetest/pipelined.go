package realtimetest

import (
	"bufio"
	"encoding/binary"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Conn is a Hocuspocus connection opened by hand, frame by frame.
type Conn struct {
	net.Conn
	br *bufio.Reader
}

// PipelinedAuth opens a Hocuspocus connection at wsBase by hand and sends
// its first frame, the Auth message for doc with token, in the same write
// as the upgrade request, before the 101 is answered (a client may). The
// server's first message is then the Auth answer, which it could only
// give if it kept the bytes read past the upgrade request.
func PipelinedAuth(t testing.TB, wsBase, doc, token string) *Conn {
	t.Helper()
	auth := appendVarString(nil, doc)
	auth = append(auth, 2, 0) // Auth, token (@hocuspocus/common)
	auth = appendVarString(auth, token)
	c := DialUpgrade(t, wsBase, "/v2/crdt/hocuspocus", maskedFrame(0x2, auth))
	_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("upgrade: %v %v", resp, err)
	}
	return &Conn{Conn: c, br: br}
}

// Next reads the server's next frame (unmasked, unfragmented): its
// opcode and payload.
func (c *Conn) Next() (op byte, payload []byte, err error) {
	var h [2]byte
	if _, err := io.ReadFull(c.br, h[:]); err != nil {
		return 0, nil, err
	}
	n := uint64(h[1] & 0x7f)
	switch n {
	case 126:
		var ext [2]byte
		if _, err := io.ReadFull(c.br, ext[:]); err != nil {
			return 0, nil, err
		}
		n = uint64(binary.BigEndian.Uint16(ext[:]))
	case 127:
		var ext [8]byte
		if _, err := io.ReadFull(c.br, ext[:]); err != nil {
			return 0, nil, err
		}
		n = binary.BigEndian.Uint64(ext[:])
	}
	payload = make([]byte, n)
	_, err = io.ReadFull(c.br, payload)
	return h[0] & 0x0f, payload, err
}

// AnswerClose echoes a close frame's status, as a client does.
func (c *Conn) AnswerClose(payload []byte) error {
	_, err := c.Write(maskedFrame(0x8, payload[:min(len(payload), 2)]))
	return err
}

// AuthenticatedMessage is the server's Auth answer for doc granting
// read-write, the first message on a PipelinedAuth connection.
func AuthenticatedMessage(doc string) []byte {
	msg := appendVarString(nil, doc)
	msg = append(msg, 2, 2) // Auth, authenticated
	return appendVarString(msg, "read-write")
}

func appendVarString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// maskedFrame is msg as one final frame of op from a client, masked
// with key zero (the payload goes as is).
func maskedFrame(op byte, msg []byte) []byte {
	f := []byte{0x80 | op}
	switch n := len(msg); {
	case n < 126:
		f = append(f, 0x80|byte(n))
	case n < 1<<16:
		f = binary.BigEndian.AppendUint16(append(f, 0x80|126), uint16(n))
	default:
		f = binary.BigEndian.AppendUint64(append(f, 0x80|127), uint64(n))
	}
	f = append(f, 0, 0, 0, 0)
	return append(f, msg...)
}

// DialUpgrade opens a TCP connection to wsBase and writes a WebSocket
// upgrade request for path by hand, followed in the same write by first
// (nil for none); reading the answer is the caller's. The connection is
// closed when the test ends.
func DialUpgrade(t testing.TB, wsBase, path string, first []byte) net.Conn {
	t.Helper()
	addr := strings.TrimPrefix(wsBase, "ws://")
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	req := "GET " + path + " HTTP/1.1\r\nHost: " + addr +
		"\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
	if _, err := c.Write(append([]byte(req), first...)); err != nil {
		t.Fatal(err)
	}
	return c
}
