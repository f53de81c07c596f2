package realtime

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"runtime"
	"testing"
	"time"

	"github.com/opencollab/backend/svc-content/realtimetest"
)

// connectCost is what a batch of Hocuspocus connections cost the
// process, per connection: the live heap and stacks they keep, the
// goroutines, and the garbage their handshakes made (the client sockets'
// share included; they are bare sockets, a few hundred bytes each).
type connectCost struct {
	live, allocBytes, allocs, goroutines float64
}

// measureHPConnects connects n Hocuspocus clients spread over docs
// documents (loaded beforehand) the way the realtime benchmark's clients
// do, and returns what each cost.
func measureHPConnects(t *testing.T, srv *testServer, docs, n int) connectCost {
	t.Helper()
	name := func(i int) string { return fmt.Sprintf("org1/cost%d/ed1", i%docs) }
	warm := make([]net.Conn, 0, docs)
	for i := range docs {
		warm = append(warm, hpBareClient(t, srv.wsBase, name(i), uint64(900000+i)))
	}
	time.Sleep(200 * time.Millisecond) // the warm-up's goroutines end
	before := footprint()
	g0 := runtime.NumGoroutine()
	var m0 runtime.MemStats
	runtime.ReadMemStats(&m0)
	conns := make([]net.Conn, 0, n)
	for i := range n {
		conns = append(conns, hpBareClient(t, srv.wsBase, name(i), uint64(100000+i)))
	}
	var m1 runtime.MemStats
	runtime.ReadMemStats(&m1)
	time.Sleep(200 * time.Millisecond) // the upgrade goroutines end
	after := footprint()
	per := func(v float64) float64 { return v / float64(n) }
	c := connectCost{
		live:       per(float64(after - before)),
		allocBytes: per(float64(m1.TotalAlloc - m0.TotalAlloc)),
		allocs:     per(float64(m1.Mallocs - m0.Mallocs)),
		goroutines: per(float64(runtime.NumGoroutine() - g0)),
	}
	t.Logf("per Hocuspocus connection: %.0f bytes live (heap + stacks), %.0f bytes in %.0f allocations made, %.2f goroutines",
		c.live, c.allocBytes, c.allocs, c.goroutines)
	runtime.KeepAlive(warm)
	runtime.KeepAlive(conns)
	return c
}

// hpBareClient opens a Hocuspocus connection as the benchmark's client
// does (Auth, SyncStep1 with an empty state vector, an empty SyncStep2
// answering the server's step 1) on a bare socket, and returns once the
// server acknowledged that step 2: the server has then done all it does
// for a connecting client.
func hpBareClient(t *testing.T, wsBase, name string, id uint64) net.Conn {
	t.Helper()
	c := bareUpgrade(t, wsBase, "/v2/crdt/hocuspocus")
	head := appendHPString(nil, name)
	auth := binary.AppendUvarint(bytes.Clone(head), hpAuth)
	auth = appendHPString(binary.AppendUvarint(auth, hpAuthToken), "editor:ada")
	auth = appendHPString(auth, "4.8.0")
	step1 := append(binary.AppendUvarint(bytes.Clone(head), hpSync), 0, 1, 0)
	step2 := append(binary.AppendUvarint(bytes.Clone(head), hpSync), 1, 2, 0, 0)
	for _, m := range [][]byte{auth, step1, step2} {
		writeMaskedFrame(t, c, m)
	}
	status := binary.AppendUvarint(bytes.Clone(head), hpSyncStatus)
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	var hdr [2]byte
	var buf [256]byte
	for {
		if _, err := io.ReadFull(c, hdr[:]); err != nil {
			t.Fatalf("client %d: %v", id, err)
		}
		n := int(hdr[1] & 0x7f)
		if n >= 126 {
			t.Fatalf("client %d: a frame of more than 125 bytes", id)
		}
		if _, err := io.ReadFull(c, buf[:n]); err != nil {
			t.Fatalf("client %d: %v", id, err)
		}
		if bytes.HasPrefix(buf[:n], status) {
			return c
		}
	}
}

// bareUpgrade opens a WebSocket on path by hand and keeps only the socket.
func bareUpgrade(t testing.TB, wsBase, path string) net.Conn {
	t.Helper()
	c := realtimetest.DialUpgrade(t, wsBase, path, nil)
	// Read the response a byte at a time, so no frame after it is consumed.
	var resp []byte
	b := make([]byte, 1)
	for !bytes.HasSuffix(resp, []byte("\r\n\r\n")) {
		if _, err := c.Read(b); err != nil {
			t.Fatalf("upgrade: %v", err)
		}
		resp = append(resp, b[0])
	}
	if !bytes.HasPrefix(resp, []byte("HTTP/1.1 101")) {
		t.Fatalf("upgrade: %s", resp)
	}
	return c
}

// Bounds of what one Hocuspocus connection costs the process, on a hub
// counting sessions in the embedded Redis as the single-process system
// does: the garbage its handshake makes (a connection burst grows the heap
// by it) and what it keeps (about 2.3 KiB: the WebSocket library's
// connection, kept until it was dropped after the handshake, made it 3.5).
const (
	maxConnectGarbage = 48 << 10
	maxHPConnBytes    = 3 << 10
)

func TestHocuspocusConnectCost(t *testing.T) {
	if testing.Short() {
		t.Skip("opens many sockets")
	}
	rdb := embeddedRedis(t)
	srv := startServer(t, nil, rdb, Settings{})
	c := measureHPConnects(t, srv, 20, 400)
	if c.allocBytes > maxConnectGarbage {
		t.Errorf("a connection's handshake allocates %.0f bytes, want at most %d", c.allocBytes, maxConnectGarbage)
	}
	if c.live > maxHPConnBytes {
		t.Errorf("a connection keeps %.0f bytes, want at most %d", c.live, maxHPConnBytes)
	}
	if c.goroutines > 0.05 {
		t.Errorf("%.2f goroutines per idle connection, want none", c.goroutines)
	}
}

// Close waits for every connection to end (the hub keeps no channel per
// connection for it): once it returns, none is left.
func TestCloseWaitsForEveryConnection(t *testing.T) {
	t.Parallel()
	srv := startServer(t, nil, nil, Settings{})
	conns := make([]net.Conn, 5)
	for i := range conns {
		conns[i] = hpBareClient(t, srv.wsBase, "org1/closing/ed1", uint64(i+1))
	}
	for _, c := range conns {
		go answerClose(c) // as a client does; the hub waits for it
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	srv.hub.Close(ctx)
	if ctx.Err() != nil {
		t.Fatal("Close waited until its deadline")
	}
	srv.hub.mu.Lock()
	left := len(srv.hub.conns)
	srv.hub.mu.Unlock()
	if left != 0 {
		t.Fatalf("%d connections left after Close", left)
	}
}

// answerClose reads frames until the server's close frame and echoes it.
func answerClose(c net.Conn) {
	var hdr [2]byte
	buf := make([]byte, 125)
	for {
		if _, err := io.ReadFull(c, hdr[:]); err != nil {
			return
		}
		n := int(hdr[1] & 0x7f)
		if _, err := io.ReadFull(c, buf[:n]); err != nil {
			return
		}
		if hdr[0]&0x0f == opClose {
			_, _ = c.Write(append([]byte{0x88, 0x80 | byte(min(n, 2)), 0, 0, 0, 0}, buf[:min(n, 2)]...))
			return
		}
	}
}
