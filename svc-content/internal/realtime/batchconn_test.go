package realtime

import (
	"bytes"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// recordingConn keeps what is written to it, one entry per Write.
type recordingConn struct {
	net.Conn
	writes [][]byte
}

func (r *recordingConn) Write(p []byte) (int, error) {
	r.writes = append(r.writes, bytes.Clone(p))
	return len(p), nil
}

func (r *recordingConn) SetWriteDeadline(time.Time) error { return nil }

// Control frames are written by the connection itself (the WebSocket
// library's connection is dropped after the handshake): each whole in one
// write, unmasked, and none after the close frame.
func TestControlFramesWrittenWholeAndNoneAfterClose(t *testing.T) {
	t.Parallel()
	rec := &recordingConn{}
	b := &batchConn{Conn: rec}
	deadline := time.Now().Add(time.Second)
	if err := b.writeControl(opPing, []byte("hi"), deadline); err != nil {
		t.Fatal(err)
	}
	if err := b.writeControl(opClose, websocket.FormatCloseMessage(CloseGoingAway, "bye"), deadline); err != nil {
		t.Fatal(err)
	}
	if err := b.writeControl(opPong, nil, deadline); !errors.Is(err, errCloseSent) {
		t.Fatalf("a pong after the close frame: %v, want errCloseSent", err)
	}
	want := [][]byte{{0x89, 2, 'h', 'i'}, {0x88, 5, 0x03, 0xE9, 'b', 'y', 'e'}}
	if len(rec.writes) != len(want) {
		t.Fatalf("%d writes %q, want %q", len(rec.writes), rec.writes, want)
	}
	for i := range want {
		if !bytes.Equal(rec.writes[i], want[i]) {
			t.Errorf("write %d: % x, want % x", i, rec.writes[i], want[i])
		}
	}
	if err := b.writeControl(opPing, make([]byte, maxControlPayload+1), deadline); err == nil {
		t.Error("a control frame over 125 bytes was accepted")
	}
}

// While a flush gathers frames, a control frame joins them in order
// instead of overtaking them on the socket.
func TestControlFrameGatheredBehindDataFrames(t *testing.T) {
	t.Parallel()
	rec := &recordingConn{}
	b := &batchConn{Conn: rec}
	b.gatherFrame([]byte("data"))
	if err := b.writeControl(opPing, nil, time.Now().Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if len(rec.writes) != 0 {
		t.Fatalf("written before the flush: %q", rec.writes)
	}
	if err := b.flush(time.Now().Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	want := []byte{0x82, 4, 'd', 'a', 't', 'a', 0x89, 0}
	if len(rec.writes) != 1 || !bytes.Equal(rec.writes[0], want) {
		t.Fatalf("writes %q, want one: % x", rec.writes, want)
	}
}
