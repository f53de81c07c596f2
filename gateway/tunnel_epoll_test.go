//go:build linux

package gateway

import (
	"bytes"
	"crypto/rand"
	"io"
	"net"
	"runtime"
	"testing"
	"time"
)

// tcpPair returns both ends of a loopback TCP connection.
func tcpPair(t testing.TB) (near, far net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		accepted <- c
	}()
	near, err = net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	far = <-accepted
	t.Cleanup(func() { _ = near.Close(); _ = far.Close() })
	return near, far
}

// polledTunnelEnds runs a tunnel of reg between two TCP connections and
// returns the outer ends: what the client and the service hold.
func polledTunnelEnds(t *testing.T, reg *tunnels) (client, service net.Conn) {
	t.Helper()
	client, gwClient := tcpPair(t)
	gwService, service := tcpPair(t)
	if !reg.acquire() {
		t.Fatal("no tunnel slot")
	}
	reg.run(&tunnel{client: gwClient, service: gwService})
	return client, service
}

// The poller relays both ways with no goroutine per tunnel, holds back a
// direction whose reader is slow without losing or reordering bytes, and
// ends both sides (and frees the slot) when one closes.
func TestPolledTunnelsRelayWithoutGoroutines(t *testing.T) {
	reg := newTunnels(100)
	before := runtime.NumGoroutine()
	const n = 50
	clients := make([]net.Conn, n)
	services := make([]net.Conn, n)
	for i := range n {
		clients[i], services[i] = polledTunnelEnds(t, reg)
	}
	if len(reg.pollers) == 0 {
		t.Fatal("no epoll poller on linux")
	}
	if grown := runtime.NumGoroutine() - before; grown > runtime.GOMAXPROCS(0)+5 {
		t.Fatalf("%d tunnels added %d goroutines, want none each", n, grown)
	}
	for i := range n {
		relayOver(t, clients[i], services[i], []byte("ping"))
		relayOver(t, services[i], clients[i], []byte("pong"))
	}

	// 8 MiB to a reader that starts late: the kernel buffers fill, the
	// rest waits in the tunnel and arrives intact once it reads.
	big := make([]byte, 8<<20)
	_, _ = rand.Read(big)
	go func() { _, _ = clients[0].Write(big) }()
	time.Sleep(300 * time.Millisecond)
	got := make([]byte, len(big))
	_ = services[0].SetReadDeadline(time.Now().Add(20 * time.Second))
	if _, err := io.ReadFull(services[0], got); err != nil || !bytes.Equal(got, big) {
		t.Fatalf("8 MiB through a held-back tunnel: err %v, equal %v", err, bytes.Equal(got, big))
	}
	relayOver(t, services[0], clients[0], []byte("still open"))

	_ = clients[1].Close()
	_ = services[1].SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := services[1].Read(make([]byte, 1)); err != io.EOF {
		t.Fatalf("service side after the client closed: %v, want EOF", err)
	}
	for deadline := time.Now().Add(5 * time.Second); reg.active.Load() != n-1; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d slots held after one tunnel ended, want %d", reg.active.Load(), n-1)
		}
	}
	done := make(chan struct{})
	go func() { reg.close(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("close did not end the polled tunnels")
	}
	if active := reg.active.Load(); active != 0 {
		t.Fatalf("%d slots held after close", active)
	}
	for _, p := range reg.pollers {
		select {
		case <-p.done:
		case <-time.After(5 * time.Second):
			t.Fatal("an epoll loop did not end with close")
		}
	}
}

// relayOver writes msg on from and expects it on to.
func relayOver(t *testing.T, from, to net.Conn, msg []byte) {
	t.Helper()
	if _, err := from.Write(msg); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, len(msg))
	_ = to.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.ReadFull(to, got); err != nil || !bytes.Equal(got, msg) {
		t.Fatalf("relayed %q (%v), want %q", got, err, msg)
	}
}

// A slot freed by a closed tunnel and taken by a new one answers only the
// new tunnel's keys: an event queued for the old one finds nothing.
func TestPollerSlotGenerations(t *testing.T) {
	p := &poller{}
	old := &polledTunnel{}
	p.place(old)
	p.slots[old.slot] = nil
	p.free = append(p.free, old.slot)
	renewed := &polledTunnel{}
	p.place(renewed)
	if renewed.slot != old.slot {
		t.Fatalf("slot %d not reused (got %d)", old.slot, renewed.slot)
	}
	for end := range 2 {
		if got := p.lookup(old.key(end)); got != nil {
			t.Fatalf("the closed tunnel's key %x found a tunnel", old.key(end))
		}
		if got := p.lookup(renewed.key(end)); got != renewed {
			t.Fatalf("key %x: %p, want the new tunnel", renewed.key(end), got)
		}
		if renewed.key(end) == 0 {
			t.Fatal("a tunnel key is the wake pipe's")
		}
	}
}

// Closes asked from many goroutines while the loop is busy closing others
// all happen: a close queued between the loop taking the queue and
// emptying its wake pipe once lost its wake-up, and the tunnel stayed
// open until some later event (a shutdown waited for ever).
func TestPollerClosesEveryTunnelAskedWhileBusy(t *testing.T) {
	const rounds, n = 100, 16
	for round := range rounds {
		reg := newTunnels(n)
		ends := make([]net.Conn, 0, 2*n)
		for range n {
			client, service := polledTunnelEnds(t, reg)
			ends = append(ends, client, service)
		}
		open := make([]*tunnel, 0, n)
		reg.mu.Lock()
		for tn := range reg.open {
			open = append(open, tn)
		}
		reg.mu.Unlock()
		for _, tn := range open {
			go tn.closeBoth()
		}
		for deadline := time.Now().Add(5 * time.Second); reg.active.Load() != 0; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("round %d: %d of %d tunnels still open 5 s after their close was asked", round, reg.active.Load(), n)
			}
		}
		reg.close()
		for _, c := range ends {
			_ = c.Close()
		}
	}
}
