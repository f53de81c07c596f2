package gateway

import (
	"io"
	"net"
	"runtime"
	"sync"
	"sync/atomic"
)

// tunnelBufferSize bounds what a tunnel direction holds in user space when
// the kernel cannot splice (a TLS connection to the service): one pooled
// buffer per direction, taken for the tunnel's life.
const tunnelBufferSize = 8 << 10

var tunnelBufPool = sync.Pool{New: func() any { b := make([]byte, tunnelBufferSize); return &b }}

// tunnels counts and tracks this replica's upgraded connections, so their
// number stays under MAX_REALTIME_TUNNELS and shutdown can close them.
type tunnels struct {
	max      int64
	active   atomic.Int64
	shutdown atomic.Bool

	mu     sync.Mutex
	open   map[*tunnel]struct{}
	closed bool
	wg     sync.WaitGroup
	// pollers relay the tunnels, one loop per CPU, taken in turn, started
	// with the first tunnel and stopped by close; none: every tunnel
	// copies on goroutines.
	pollers     []*poller
	pollersOnce sync.Once
	next        atomic.Uint64
}

func newTunnels(max int) *tunnels {
	return &tunnels{max: int64(max), open: make(map[*tunnel]struct{})}
}

// startPollers runs the epoll loops (t.mu held).
func (t *tunnels) startPollers() {
	t.pollersOnce.Do(func() {
		for range runtime.GOMAXPROCS(0) {
			if p, err := newPoller(t.finish); err == nil {
				t.pollers = append(t.pollers, p)
			}
		}
	})
}

// acquire reserves a slot for one tunnel; release gives it back. A
// reservation is taken before the service is even dialled, so a flood of
// upgrades is refused without touching it.
func (t *tunnels) acquire() bool {
	if t.shutdown.Load() {
		return false
	}
	if t.active.Add(1) > t.max {
		t.active.Add(-1)
		return false
	}
	return true
}

func (t *tunnels) release() { t.active.Add(-1) }

// tunnel joins a client and a service connection after a 101 answer.
type tunnel struct {
	mu              sync.Mutex
	client, service net.Conn // nil once a poller owns the sockets
	closed          bool
	// poller owns the sockets once set: only its loop reads, writes and
	// closes them.
	poller *poller
	polled *polledTunnel
}

// closeBoth ends the tunnel: a copy blocked on either side returns. A
// polled tunnel is closed by its poller's loop, which then finishes it.
func (tn *tunnel) closeBoth() {
	tn.mu.Lock()
	if tn.closed {
		tn.mu.Unlock()
		return
	}
	tn.closed = true
	p, pt := tn.poller, tn.polled
	client, service := tn.client, tn.service
	tn.mu.Unlock()
	if p != nil {
		p.closeSoon(pt)
		return
	}
	_ = client.Close()
	_ = service.Close()
}

// run relays both ways until either side closes, then closes both and
// finishes the tunnel: from the poller's loop when it can take the
// tunnel (run returns at once), else on two goroutines. It returns at
// once, closing both, when the registry is already closed (shutdown).
func (t *tunnels) run(tn *tunnel) {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		tn.closeBoth()
		t.release()
		return
	}
	t.open[tn] = struct{}{}
	t.wg.Add(1)
	t.startPollers()
	pollers := t.pollers
	t.mu.Unlock()
	if len(pollers) > 0 && pollers[t.next.Add(1)%uint64(len(pollers))].add(tn) {
		return
	}
	defer t.finish(tn)
	done := make(chan struct{})
	go func() {
		defer close(done)
		pipe(tn.client, tn.service)
		tn.closeBoth()
	}()
	pipe(tn.service, tn.client)
	tn.closeBoth()
	<-done
}

// finish forgets a closed tunnel and frees its slot, once per tunnel run.
func (t *tunnels) finish(tn *tunnel) {
	t.mu.Lock()
	delete(t.open, tn)
	t.mu.Unlock()
	t.release()
	t.wg.Done() // last: close waits for it
}

// close closes every open tunnel, refuses new ones and waits until their
// copies have stopped. The gateway calls it after the HTTP server drained.
func (t *tunnels) close() {
	t.shutdown.Store(true)
	t.mu.Lock()
	t.closed = true
	open := make([]*tunnel, 0, len(t.open))
	for tn := range t.open {
		open = append(open, tn)
	}
	t.mu.Unlock()
	for _, tn := range open { // not under t.mu: finishing one takes it
		tn.closeBoth()
	}
	t.wg.Wait()
	t.mu.Lock()
	pollers := t.pollers
	t.mu.Unlock()
	for _, p := range pollers {
		p.stop()
	}
}

// pipe copies src to dst until either fails. Between two TCP connections
// the kernel moves the bytes (splice), with no user-space buffer and no
// allocation per message; otherwise one pooled, bounded buffer is used.
func pipe(dst, src net.Conn) {
	if d, ok := dst.(*net.TCPConn); ok {
		if s, ok := src.(*net.TCPConn); ok {
			_, _ = d.ReadFrom(s)
			return
		}
	}
	bp := tunnelBufPool.Get().(*[]byte)
	defer tunnelBufPool.Put(bp)
	_, _ = io.CopyBuffer(writerOnly{dst}, readerOnly{src}, *bp)
}

// readerOnly hides a connection's WriteTo, which would bring its own
// buffer.
type readerOnly struct{ io.Reader }
