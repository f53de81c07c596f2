//go:build linux

package gateway

import (
	"io"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/testalloc"
)

// maxIdleTunnelBytes bounds the heap an idle tunnel costs the gateway,
// its two sockets included: the README's memory goal per realtime
// connection is shared by both hops and doubled by collector slack.
const maxIdleTunnelBytes = 512

// An idle tunnel, once it has relayed a message each way, holds no
// goroutine, no buffer and no Go socket state: the heap the gateway
// keeps per tunnel, measured against the same sockets held without a
// gateway, stays under maxIdleTunnelBytes, and the number of goroutines
// does not grow with the tunnels.
func TestIdleTunnelFootprint(t *testing.T) {
	if testing.Short() {
		t.Skip("opens many sockets")
	}
	const n = 300
	bare := socketPairsFootprint(t, n) // what the test's own ends cost
	svc := newRawUpgradeService(t)
	e := newEnv(t, func(c *Config) {
		c.ContentURL = "http://" + svc.ln.Addr().String()
		c.MaxRealtimeTunnels = n + 1
		c.LogLevel = "error"
	})
	t.Cleanup(e.gw.Close)
	ends := make([]net.Conn, 0, 2*n+2)
	t.Cleanup(func() {
		for _, c := range ends {
			_ = c.Close()
		}
	})
	warmC, warmS := rawUpgrade(t, e, svc) // starts the pollers
	ends = append(ends, warmC, warmS)
	relayOver(t, warmC, warmS, []byte("warm"))
	before, goroutines := liveHeap(), runtime.NumGoroutine()
	for range n {
		c, s := rawUpgrade(t, e, svc)
		relayOver(t, c, s, []byte("hello"))
		relayOver(t, s, c, []byte("world"))
		ends = append(ends, c, s)
	}
	time.Sleep(200 * time.Millisecond) // the handlers' goroutines end
	per := (liveHeap()-before)/n - bare
	grown := runtime.NumGoroutine() - goroutines
	t.Logf("idle tunnel: %d bytes of gateway heap each (the test's ends: %d bytes); %d goroutines more for %d tunnels", per, bare, grown, n)
	if per > maxIdleTunnelBytes {
		t.Fatalf("an idle tunnel costs the gateway %d bytes of heap, want at most %d", per, maxIdleTunnelBytes)
	}
	if grown > n/10 {
		t.Fatalf("%d tunnels added %d goroutines, want none each", n, grown)
	}
	runtime.KeepAlive(ends)
}

// socketPairsFootprint is what n loopback connections cost this process
// when it holds both ends: the test's client and service ends of n
// tunnels.
func socketPairsFootprint(t *testing.T, n int) int64 {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	before := liveHeap()
	ends := make([]net.Conn, 0, 2*n)
	for range n {
		near, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		far, err := ln.Accept()
		if err != nil {
			t.Fatal(err)
		}
		ends = append(ends, near, far)
	}
	per := (liveHeap() - before) / int64(n)
	for _, c := range ends {
		_ = c.Close()
	}
	return per
}

// Relaying a message through a polled tunnel allocates nothing: no
// closure per read or write, no buffer per message.
func TestRelayAllocations(t *testing.T) {
	reg := newTunnels(1)
	t.Cleanup(reg.close)
	client, service := polledTunnelEnds(t, reg)
	msg, got := []byte("a small update"), make([]byte, 14)
	relay := func() {
		if _, err := client.Write(msg); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(service, got); err != nil {
			t.Fatal(err)
		}
	}
	relay()
	if allocs := testalloc.PerRun(200, relay); allocs > 0.1 {
		t.Fatalf("%.2f allocations per relayed message, want none", allocs)
	}
}

// liveHeap is the live heap after a collection. Stacks are left out: the
// goroutines of finished upgrades leave theirs cached for a while, and
// the tunnels' own goroutines (none) are counted by number.
func liveHeap() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// rawUpgradeService stands in for svc-content at the socket level: it
// answers every upgrade with a bare 101 and hands over the socket, with
// no WebSocket state.
type rawUpgradeService struct {
	ln    net.Listener
	conns chan net.Conn
}

func newRawUpgradeService(t testing.TB) *rawUpgradeService {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &rawUpgradeService{ln: ln, conns: make(chan net.Conn)}
	t.Cleanup(func() { _ = ln.Close() })
	go s.accept()
	return s
}

func (s *rawUpgradeService) accept() {
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		go func() {
			if err := readHeadRaw(c); err != nil {
				_ = c.Close()
				return
			}
			_, _ = io.WriteString(c, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
			s.conns <- c
		}()
	}
}

// readHeadRaw reads one HTTP head a byte at a time, so nothing after it
// is consumed and no reader is kept.
func readHeadRaw(c net.Conn) error {
	var last [4]byte
	b := make([]byte, 1)
	for string(last[:]) != "\r\n\r\n" {
		if _, err := c.Read(b); err != nil {
			return err
		}
		last = [4]byte{last[1], last[2], last[3], b[0]}
	}
	return nil
}

// rawUpgrade opens a tunnel through the gateway with a bare socket and
// returns the client's and the service's ends, which the caller closes
// (a cleanup each would be counted in a footprint).
func rawUpgrade(t testing.TB, e *env, svc *rawUpgradeService) (client, service net.Conn) {
	t.Helper()
	addr := strings.TrimPrefix(e.srv.URL, "http://")
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	req := "GET /v2/crdt/hocuspocus HTTP/1.1\r\nHost: " + addr + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatal(err)
	}
	if err := readHeadRaw(c); err != nil {
		t.Fatal(err)
	}
	select {
	case service = <-svc.conns:
	case <-time.After(10 * time.Second):
		_ = c.Close()
		t.Fatal("the upgrade did not reach the service")
	}
	return c, service
}

// BenchmarkTunnelRelay relays one small message from the client to the
// service end of a polled tunnel per op (strace -c -f over a run gives
// the syscalls per relayed message).
func BenchmarkTunnelRelay(b *testing.B) {
	reg := newTunnels(1)
	b.Cleanup(reg.close)
	client, gwClient := tcpPair(b)
	gwService, service := tcpPair(b)
	if !reg.acquire() {
		b.Fatal("no tunnel slot")
	}
	reg.run(&tunnel{client: gwClient, service: gwService})
	msg, got := []byte("a small update"), make([]byte, 14)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := client.Write(msg); err != nil {
			b.Fatal(err)
		}
		if _, err := io.ReadFull(service, got); err != nil {
			b.Fatal(err)
		}
	}
}
