//go:build unix

package nbio

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/testalloc"
)

// socketPair is a connected pair of unix stream sockets as net.Conns.
func socketPair(t *testing.T) (server, client net.Conn) {
	t.Helper()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	conns := make([]net.Conn, 2)
	for i, fd := range fds {
		f := os.NewFile(uintptr(fd), "socketpair")
		c, err := net.FileConn(f) // a dup: the file is closed below
		_ = f.Close()
		if err != nil {
			t.Fatal(err)
		}
		conns[i] = c
	}
	t.Cleanup(func() { _ = conns[0].Close(); _ = conns[1].Close() })
	return conns[0], conns[1]
}

func TestSocketReadsAndWritesLikeTheConn(t *testing.T) {
	server, client := socketPair(t)
	s := New(server)
	if s == nil {
		t.Fatal("New refused a unix socket")
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
	server, client := socketPair(t)
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
		done <- server.(*net.UnixConn).CloseWrite()
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
	server, _ := socketPair(t)
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

func TestSocketReportsAClosedPeer(t *testing.T) {
	server, client := socketPair(t)
	s := New(server)
	_ = client.Close()
	var err error
	for range 100 { // the close may need a write to surface
		if _, err = s.Write([]byte("x")); err != nil {
			break
		}
		time.Sleep(time.Millisecond)
	}
	var oe *net.OpError
	if !errors.As(err, &oe) || oe.Op != "write" {
		t.Fatalf("Write to a closed peer = %v; want a *net.OpError for write", err)
	}
}

func TestSocketReadAndWriteAllocateNothing(t *testing.T) {
	server, client := socketPair(t)
	s := New(server)
	msg, buf, peer := []byte("ping"), make([]byte, 16), make([]byte, 16)
	allocs := testalloc.PerRun(200, func() {
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

func TestNewTakesPlainSocketsOnly(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if New(c) == nil {
		t.Fatal("New refused a TCP connection")
	}
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	if New(a) != nil {
		t.Fatal("New took a net.Pipe end")
	}
}
