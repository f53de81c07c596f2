package realtime

import (
	"bufio"
	"encoding/binary"
	"io"
	"net"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/racedetector"
	"github.com/opencollab/backend/svc-content/internal/realtime/yproto"
	"github.com/opencollab/backend/svc-content/internal/yjs/lib0"
)

// maxHPUpdateAllocs bounds the process's allocations per Hocuspocus
// update relayed to 9 members and acknowledged, one update at a time (a
// batch of its own), on a store that keeps nothing. Measured: 23 alone,
// 25 in a run of the package (its other tests' servers closing); 26
// alone before the Yjs engine read a one-struct update into one
// allocation and wrote emitted updates with the document's encoder
// (TestApplyTypedCharacterAllocations pins that); 27; 55 on
// main before the message was read in place (no decoder, no address
// string), the acknowledgement framed once per session, the relay's
// outbound kept by the room, edit events keyed by DocKey (not a
// formatted string), sockets read by parked workers and fewer
// allocations in the Yjs engine's apply (TestApplyTypedCharacterAllocations).
const maxHPUpdateAllocs = 28

// TestHocuspocusUpdateAllocations counts the allocations of the whole
// process per update at a steady pace (clients included: they read into
// fixed buffers).
func TestHocuspocusUpdateAllocations(t *testing.T) {
	if racedetector.Enabled {
		t.Skip("the race detector allocates on its own")
	}
	const peers, updates = 9, 200
	srv := serveHub(t, NewHub(Options{Store: discardStore{}, Access: fakeAccess{}}))
	name := "org1/hpcost/ed1"
	relayed := new(atomic.Int64)
	for i := range peers {
		go countHPFrames(hpBareClient(t, srv.wsBase, name, uint64(i)), relayed, nil)
	}
	acked := new(atomic.Int64)
	sender := hpBareClient(t, srv.wsBase, name, peers)
	go countHPFrames(sender, nil, acked)
	frames := hpUpdateFrames(t, name, updates+1)
	send := func(i int) {
		if _, err := sender.Write(frames[i]); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for relayed.Load() < int64(peers*(i+1)) || acked.Load() < int64(i+1) {
			if time.Now().After(deadline) {
				t.Fatalf("update %d: %d relays, %d acks", i, relayed.Load(), acked.Load())
			}
			runtime.Gosched()
		}
	}
	send(0)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := 1; i <= updates; i++ {
		send(i)
	}
	runtime.ReadMemStats(&after)
	perUpdate := float64(after.Mallocs-before.Mallocs) / updates
	t.Logf("%.1f allocations per Hocuspocus update relayed to %d members and acknowledged", perUpdate, peers)
	if perUpdate > maxHPUpdateAllocs {
		t.Fatalf("%.1f allocations per update, want at most %d", perUpdate, maxHPUpdateAllocs)
	}
}

// hpUpdateFrames makes n masked client frames of Hocuspocus sync
// updates to name, each appending one character as one editor typing.
func hpUpdateFrames(t *testing.T, name string, n int) [][]byte {
	return hpFramesOf(t, name, appendFrames(t, n))
}

// hpFramesOf turns masked y-websocket sync update frames into Hocuspocus
// ones to name (in place).
func hpFramesOf(t *testing.T, name string, frames [][]byte) [][]byte {
	for i, f := range frames {
		u, err := yproto.ReadSync(lib0.NewDecoder(f[6+1:])) // after the y-websocket type
		if err != nil {
			t.Fatal(err)
		}
		msg := binary.AppendUvarint(appendHPString(nil, name), hpSync)
		msg = yproto.AppendSync(msg, yproto.SyncUpdate, u.Payload)
		if len(msg) > 125 {
			t.Fatalf("a frame of %d bytes", len(msg))
		}
		frames[i] = append([]byte{0x82, 0x80 | byte(len(msg)), 0, 0, 0, 0}, msg...)
	}
	return frames
}

// countHPFrames counts the sync updates (relays) and the sync statuses
// (acknowledgements) the server sends on c.
func countHPFrames(c net.Conn, relays, acks *atomic.Int64) {
	readHPFrames(c, func(typ uint64) {
		switch {
		case typ == hpSync && relays != nil:
			relays.Add(1)
		case typ == hpSyncStatus && acks != nil:
			acks.Add(1)
		}
	})
}

// readHPFrames calls seen with the type of each Hocuspocus message the
// server sends on c (frames of at most 125 bytes) until c ends.
func readHPFrames(c net.Conn, seen func(typ uint64)) {
	r := bufio.NewReader(c)
	var hdr [2]byte
	var buf [256]byte
	for {
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			return
		}
		n := int(hdr[1] & 0x7f)
		if n >= 126 {
			return
		}
		if _, err := io.ReadFull(r, buf[:n]); err != nil {
			return
		}
		m, err := readHPMessage(buf[:n])
		if err != nil {
			return
		}
		seen(m.typ)
	}
}
