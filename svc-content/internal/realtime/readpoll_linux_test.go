package realtime

import (
	"net"
	"syscall"
	"testing"

	"github.com/opencollab/backend/pkg/testalloc"
)

// Reading a socket and re-arming it, done for every message a client
// sends, allocate nothing (a closure per call cost 5 allocations).
func TestReadAndRearmAllocateNothing(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	client, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	server, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	raw, err := server.(*net.TCPConn).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	p := sharedPoller()
	if p == nil {
		t.Skip("no epoll")
	}
	c := &conn{}
	c.rd.raw = raw
	if err := p.ctl(c, syscall.EPOLL_CTL_ADD); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = p.ctl(c, syscall.EPOLL_CTL_DEL) }()
	buf, msg := make([]byte, 64), []byte("x")
	allocs := testalloc.PerRun(100, func() {
		if _, err := client.Write(msg); err != nil {
			t.Fatal(err)
		}
		for n := 0; n == 0; {
			n, _ = readSome(raw, buf)
		}
		if err := p.ctl(c, syscall.EPOLL_CTL_MOD); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("a read and a re-arm allocated %.1f times, want 0", allocs)
	}
}
