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
			if p, err := newPoller(); err == nil {
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
	client, service net.Conn
	once            sync.Once

	mu          sync.Mutex
	closed      bool
	beforeClose func() // the poller's deregistration
	finish      func() // the registry's bookkeeping, once closed
}

// closeBoth ends the tunnel: a copy blocked on either side returns.
func (tn *tunnel) closeBoth() {
	tn.once.Do(func() {
		tn.mu.Lock()
		tn.closed = true
		before, finish := tn.beforeClose, tn.finish
		tn.mu.Unlock()
		if before != nil {
			before()
		}
		_ = tn.client.Close()
		_ = tn.service.Close()
		if finish != nil {
			finish()
		}
	})
}

// setBeforeClose sets what closeBoth runs first; false when the tunnel is
// closed already.
func (tn *tunnel) setBeforeClose(f func()) bool {
	tn.mu.Lock()
	defer tn.mu.Unlock()
	tn.beforeClose = f
	return !tn.closed
}

// run relays both ways until either side closes, then closes both and
// releases the slot: from the poller's loop when it can take the tunnel
// (run returns at once), else on two goroutines. It returns at once,
// closing both, when the registry is already closed (shutdown).
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
	var once sync.Once
	finish := func() {
		once.Do(func() {
			t.mu.Lock()
			delete(t.open, tn)
			t.mu.Unlock()
			t.wg.Done()
			t.release()
		})
	}
	if len(pollers) > 0 {
		tn.mu.Lock()
		tn.finish = finish
		tn.mu.Unlock()
		if pollers[t.next.Add(1)%uint64(len(pollers))].add(tn) {
			return
		}
	}
	defer finish()
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
	for _, tn := range open { // not under t.mu: closing one runs its finish
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
