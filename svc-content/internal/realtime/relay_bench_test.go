package realtime

import (
	"bufio"
	"context"
	"encoding/binary"
	"io"
	"net"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// discardStore stores nothing: the benchmark measures the realtime side.
type discardStore struct{}

func (discardStore) Load(context.Context, DocKey) ([]byte, Mark, error) { return nil, Mark{}, nil }

func (discardStore) CatchUp(context.Context, DocKey, Mark) ([]byte, Mark, error) {
	return nil, Mark{}, nil
}
func (discardStore) AppendBatch(_ context.Context, b []Append) []error {
	return make([]error, len(b))
}

// BenchmarkUpdateRelay is the realtime cost of one small edit on a
// document with 10 y-websocket sessions (the README's load: 1,000 clients
// over 100 documents): its frame read, apply, relay to the 9 others,
// group commit (to a store that keeps nothing) and the socket writes.
// Allocations, goroutines started and write system calls per op are the
// process's per update.
func BenchmarkUpdateRelay(b *testing.B) {
	const peers = 9
	_, sender, relayed := relayRoom(b, peers)
	frames := appendFrames(b, b.N)
	b.ReportAllocs()
	created := goroutinesCreated()
	w0 := syscw()
	b.ResetTimer()
	defer func() {
		b.ReportMetric(float64(syscw()-w0)/float64(b.N), "writes/op")
		b.ReportMetric(float64(goroutinesCreated()-created)/float64(b.N), "goroutines/op")
	}()
	for i, f := range frames {
		if _, err := sender.Write(f); err != nil {
			b.Fatal(err)
		}
		// At most 64 updates in flight, as a client keeps to its acks.
		for relayed.Load() < int64(peers*(i-64)) {
			runtime.Gosched()
		}
	}
	for relayed.Load() < int64(peers*len(frames)) {
		runtime.Gosched()
	}
}

// relayRoom connects peers clients that count the updates relayed to
// them and a sender to one document of a hub that stores nothing.
func relayRoom(t testing.TB, peers int) (hub *Hub, sender net.Conn, relayed *atomic.Int64) {
	hub = NewHub(Options{Store: discardStore{}, Access: fakeAccess{}})
	srv := serveHub(t, hub)
	relayed = new(atomic.Int64)
	for range peers {
		c := bareClient(t, srv.wsBase, "org1/bench/ed1")
		go countUpdates(c, relayed)
	}
	sender = bareClient(t, srv.wsBase, "org1/bench/ed1")
	go func() { _, _ = io.Copy(io.Discard, sender) }()
	waitMembers(t, hub, DocKey{"ws1", "org1", "bench", "ed1"}, peers+1)
	return hub, sender, relayed
}

// appendFrames makes n client frames, each appending one character to
// the document's text as one editor typing.
func appendFrames(b testing.TB, n int) [][]byte {
	frames := make([][]byte, n)
	for i, u := range typedUpdates(b, n) {
		msg := ywsSyncMessage(2, u)
		frames[i] = append([]byte{0x82, 0x80 | byte(len(msg)), 0, 0, 0, 0}, msg...)
	}
	return frames
}

// typedUpdates are n updates of one editor typing a character each.
func typedUpdates(t testing.TB, n int) [][]byte {
	d := yjs.NewDoc(4242)
	updates := make([][]byte, n)
	for i := range updates {
		u, err := d.Transact(func(tx *yjs.Tx) error {
			text := d.Text("content")
			return text.Insert(tx, text.Len(), "x", nil)
		})
		if err != nil {
			t.Fatal(err)
		}
		updates[i] = u
	}
	return updates
}

// countUpdates counts the sync update messages the server sends on c.
func countUpdates(c net.Conn, n *atomic.Int64) {
	r := bufio.NewReader(c)
	hdr := make([]byte, 10)
	var buf []byte
	for {
		if _, err := io.ReadFull(r, hdr[:2]); err != nil {
			return
		}
		size := int(hdr[1] & 0x7f)
		if size == 126 {
			if _, err := io.ReadFull(r, hdr[:2]); err != nil {
				return
			}
			size = int(binary.BigEndian.Uint16(hdr))
		}
		if cap(buf) < size {
			buf = make([]byte, size)
		}
		payload := buf[:size]
		if _, err := io.ReadFull(r, payload); err != nil {
			return
		}
		if size >= 2 && payload[0] == ywsSync && payload[1] == 2 {
			n.Add(1)
		}
	}
}

// goroutinesCreated is how many goroutines the process has started: a
// delivery handed to a goroutine costs one start and one wake-up.
func goroutinesCreated() uint64 {
	s := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// syscw is how many write system calls the process made (Linux; 0
// elsewhere), the benchmark's own clients' included (one per update):
// relays gathered in a burst take fewer than one per member.
func syscw() uint64 { return procIO("syscw") }

// procIO is one counter of /proc/self/io (0 where there is none).
func procIO(name string) uint64 {
	raw, _ := os.ReadFile("/proc/self/io")
	for _, l := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(l, name+": "); ok {
			n, _ := strconv.ParseUint(v, 10, 64)
			return n
		}
	}
	return 0
}
