package system

import (
	"context"
	"io"
	"net"
	"sync/atomic"
)

// balancer spreads TCP connections over several replicas in turn, as a
// Kubernetes Service does: it lets the local system run svc-content as
// several replicas behind the gateway without sticky sessions.
type balancer struct {
	ln       net.Listener
	backends []string
	next     atomic.Uint64
}

func startBalancer(ctx context.Context, backends []string) (*balancer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	b := &balancer{ln: ln, backends: backends}
	go func() {
		<-ctx.Done()
		_ = ln.Close()
	}()
	go b.serve()
	return b, nil
}

func (b *balancer) URL() string { return "http://" + b.ln.Addr().String() }

func (b *balancer) serve() {
	for {
		c, err := b.ln.Accept()
		if err != nil {
			return
		}
		backend := b.backends[b.next.Add(1)%uint64(len(b.backends))]
		go pipe(c, backend)
	}
}

func pipe(c net.Conn, backend string) {
	defer c.Close()
	u, err := net.Dial("tcp", backend)
	if err != nil {
		return
	}
	defer u.Close()
	done := make(chan struct{}, 2)
	go func() { _, _ = io.Copy(u, c); done <- struct{}{} }()
	go func() { _, _ = io.Copy(c, u); done <- struct{}{} }()
	<-done
}
