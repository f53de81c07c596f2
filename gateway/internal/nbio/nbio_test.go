//go:build unix

package nbio

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"testing"
	"time"
)

// tcpPair is a connected loopback TCP pair: the accepted end and the
// dialled one.
func tcpPair(t *testing.T) (server, client net.Conn) {
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
	client, err = net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	server = <-accepted
	if server == nil {
		t.Fatal("accept failed")
	}
	t.Cleanup(func() { _ = server.Close(); _ = client.Close() })
	return server, client
}

func TestSocketReadsAndWritesLikeTheConn(t *testing.T) {
	server, client := tcpPair(t)
	s := New(server)
	if s == nil {
		t.Fatal("New refused a TCP connection")
	}
	go func() { _, _ = client.Write([]byte("hello")) }()
	buf := make([]byte, 64)
	n, err := s.Read(buf) // waits in the poller: the bytes come later
	if err != nil || string(buf[:n]) != "hello" {
		t.Fatalf("Read = %q, %v", buf[:n], err)
	}
	if n, err := s.Write([]byte("world")); n != 5 || err != nil {
		t.Fatalf("Write = %d, %v", n, err)
	}
	got := make([]byte, 5)
	if _, err := io.ReadFull(client, got); err != nil || string(got) != "world" {
		t.Fatalf("peer read %q, %v", got, err)
	}
	_ = client.Close()
	if n, err := s.Read(buf); n != 0 || err != io.EOF {
		t.Fatalf("Read after the peer closed = %d, %v; want io.EOF", n, err)
	}
}

func TestSocketWriteWaitsForRoom(t *testing.T) {
	server, client := tcpPair(t)
	s := New(server)
	// Far more than the socket buffers hold, in writes up to the raw
	// limit: most of it can only go once the peer reads.
	want := bytes.Repeat([]byte("0123456789abcdef"), 4<<20/16)
	done := make(chan error, 1)
	go func() {
		for b := want; len(b) > 0; {
			k := min(len(b), maxRaw)
			if _, err := s.Write(b[:k]); err != nil {
				done <- err
				return
			}
			b = b[k:]
		}
		done <- server.(*net.TCPConn).CloseWrite()
	}()
	got, err := io.ReadAll(client)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("peer read %d of %d bytes, %v", len(got), len(want), err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestSocketHonoursDeadlinesAndClose(t *testing.T) {
	server, _ := tcpPair(t)
	s := New(server)
	_ = server.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
	_, err := s.Read(make([]byte, 8))
	var ne net.Error
	if !errors.Is(err, os.ErrDeadlineExceeded) || !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("Read past the deadline = %v; want a timeout", err)
	}
	_ = server.Close()
	if _, err := s.Read(make([]byte, 8)); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("Read of a closed conn = %v; want net.ErrClosed", err)
	}
	if _, err := s.Write([]byte("x")); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("Write to a closed conn = %v; want net.ErrClosed", err)
	}
}

func TestSocketReportsAPeerReset(t *testing.T) {
	server, client := tcpPair(t)
	s := New(server)
	_ = client.(*net.TCPConn).SetLinger(0)
	_ = client.Close() // a reset
	var err error
	for range 100 { // the reset may need a write to surface
		if _, err = s.Write([]byte("x")); err != nil {
			break
		}
		time.Sleep(time.Millisecond)
	}
	var oe *net.OpError
	if !errors.As(err, &oe) || oe.Op != "write" {
		t.Fatalf("Write to a reset peer = %v; want a *net.OpError for write", err)
	}
}

func TestSocketReadAndWriteAllocateNothing(t *testing.T) {
	server, client := tcpPair(t)
	s := New(server)
	msg, buf, peer := []byte("ping"), make([]byte, 16), make([]byte, 16)
	allocs := testing.AllocsPerRun(200, func() {
		if _, err := s.Write(msg); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(client, peer[:len(msg)]); err != nil {
			t.Fatal(err)
		}
		if _, err := client.Write(msg); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Read(buf); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("%.1f allocations per write and read; want 0", allocs)
	}
}

func TestNewLeavesOtherConnsAlone(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	if New(a) != nil {
		t.Fatal("New took a net.Pipe end")
	}
}
