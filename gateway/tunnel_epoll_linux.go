package gateway

import (
	"sync"
	"syscall"
)

// poller relays the bytes of every TCP tunnel of the gateway from one
// epoll loop: an idle tunnel costs no goroutine (two goroutines blocked in
// splice held about 13 KiB of stack per WebSocket). The poller owns each
// tunnel's two sockets as bare descriptors, taken out of Go's network
// poller: no net.Conn state is kept per tunnel, and a message does not
// also wake the runtime's own epoll. The loop reads what a socket has
// into its one buffer and writes it to the other end; what the other end
// cannot take yet is kept for that tunnel direction, whose source is then
// not read (back-pressure, nothing unbounded) until the destination can
// be written again.
type poller struct {
	epfd     int
	wake     [2]int        // a pipe in the set: closes asked for, or stop
	done     chan struct{} // closed when the loop has ended
	finished func(*tunnel) // the registry's bookkeeping of a closed tunnel

	mu sync.Mutex
	// slots holds the tunnels by slot number (nil: free), which names
	// them in epoll events together with their generation.
	slots   []*polledTunnel
	free    []uint32
	lastGen uint32
	closing []*polledTunnel // to be closed by the loop
	stopped bool            // asked to end
	ended   bool            // its descriptors closed
}

// polledTunnel is a tunnel's two sockets in the poller; only the loop
// reads, writes and closes them once they are registered.
type polledTunnel struct {
	tn        *tunnel
	slot, gen uint32
	ends      [2]tunnelEnd // client, service
	closed    bool
}

// tunnelEnd is one socket of a tunnel.
type tunnelEnd struct {
	fd     int
	events uint32 // what it is registered for
	// out is what was read from the other end and waits to be written
	// here.
	out []byte
}

// key names one end of pt in epoll events: generation, slot and end. A
// slot's next tunnel has another generation, so an event still queued
// for a closed tunnel finds nothing even when its socket numbers were
// reused. Generations start at 1: key 0 is the wake pipe.
func (pt *polledTunnel) key(end int) uint64 {
	return uint64(pt.gen)<<32 | uint64(pt.slot)<<1 | uint64(end)
}

// lookup finds the tunnel a key names (p.mu held).
func (p *poller) lookup(key uint64) *polledTunnel {
	slot := uint32(key) >> 1
	if slot >= uint32(len(p.slots)) {
		return nil
	}
	if pt := p.slots[slot]; pt != nil && pt.gen == uint32(key>>32) {
		return pt
	}
	return nil
}

// place gives pt a slot and a generation (p.mu held).
func (p *poller) place(pt *polledTunnel) {
	p.lastGen++
	if p.lastGen == 0 {
		p.lastGen = 1
	}
	pt.gen = p.lastGen
	if n := len(p.free); n > 0 {
		pt.slot = p.free[n-1]
		p.free = p.free[:n-1]
	} else {
		pt.slot = uint32(len(p.slots))
		p.slots = append(p.slots, nil)
	}
	p.slots[pt.slot] = pt
}

// pollReadSize is the loop's read buffer: at most this much moves per
// readiness event, and at most this much waits per held-back direction.
const pollReadSize = 32 << 10

const relayEvents = syscall.EPOLLIN | syscall.EPOLLRDHUP

func newPoller(finished func(*tunnel)) (*poller, error) {
	fd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return nil, err
	}
	p := &poller{epfd: fd, finished: finished, done: make(chan struct{})}
	if err := syscall.Pipe2(p.wake[:], syscall.O_NONBLOCK|syscall.O_CLOEXEC); err != nil {
		_ = syscall.Close(fd)
		return nil, err
	}
	// Key 0 is the wake pipe: generations start at 1.
	if err := p.epollCtl(syscall.EPOLL_CTL_ADD, p.wake[0], syscall.EPOLLIN, 0); err != nil {
		p.closeFDs()
		return nil, err
	}
	go p.loop()
	return p, nil
}

// stop ends the loop (its tunnels are closed by then).
func (p *poller) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stopped = true
	p.nudgeLocked()
}

// closeSoon has the loop close pt, from any goroutine.
func (p *poller) closeSoon(pt *polledTunnel) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closing = append(p.closing, pt)
	p.nudgeLocked()
}

// nudgeLocked wakes the loop (a full pipe wakes it as well); never once
// the loop has closed the pipe, whose number may be another file's by
// then (p.mu held).
func (p *poller) nudgeLocked() {
	if !p.ended {
		_, _ = syscall.Write(p.wake[1], wakeByte[:])
	}
}

var wakeByte = [1]byte{0}

// closeFDs closes the epoll set and the wake pipe, when the loop ends.
func (p *poller) closeFDs() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ended = true
	for _, fd := range []int{p.wake[0], p.wake[1], p.epfd} {
		_ = syscall.Close(fd)
	}
}

func (p *poller) epollCtl(op, fd int, events uint32, key uint64) error {
	ev := syscall.EpollEvent{Events: events, Fd: int32(uint32(key)), Pad: int32(uint32(key >> 32))}
	return syscall.EpollCtl(p.epfd, op, fd, &ev)
}

// add takes over a tunnel between two TCP connections; false when it
// cannot (the caller copies with goroutines then, the connections
// untouched) or when the tunnel is closed already.
func (p *poller) add(tn *tunnel) bool {
	tn.mu.Lock()
	defer tn.mu.Unlock()
	if tn.closed {
		return false
	}
	fds, ok := takeSockets(tn.client, tn.service)
	if !ok {
		return false
	}
	tn.client, tn.service = nil, nil
	pt := &polledTunnel{tn: tn}
	for i, fd := range fds {
		pt.ends[i] = tunnelEnd{fd: fd, events: relayEvents}
	}
	tn.poller, tn.polled = p, pt
	// Registered under p.mu: the loop, which resolves events under it,
	// cannot serve (or close) one end before both are in the set.
	p.mu.Lock()
	defer p.mu.Unlock()
	p.place(pt)
	for i, fd := range fds {
		if p.epollCtl(syscall.EPOLL_CTL_ADD, fd, relayEvents, pt.key(i)) != nil {
			tn.closed = true
			p.closing = append(p.closing, pt)
			p.nudgeLocked()
			break
		}
	}
	return true
}

// closeTunnel closes pt's sockets and finishes its tunnel. Loop only.
func (p *poller) closeTunnel(pt *polledTunnel) {
	if pt.closed {
		return
	}
	pt.closed = true
	p.mu.Lock()
	p.slots[pt.slot] = nil
	p.free = append(p.free, pt.slot)
	p.mu.Unlock()
	for i := range pt.ends {
		// Out of the set first: were the socket still open elsewhere
		// (Go's close of the original deferred), its events would come
		// back with a key that names nothing, for ever.
		_ = p.epollCtl(syscall.EPOLL_CTL_DEL, pt.ends[i].fd, 0, 0)
		_ = syscall.Close(pt.ends[i].fd)
		pt.ends[i].out = nil
	}
	tn := pt.tn
	tn.mu.Lock()
	tn.closed = true
	tn.mu.Unlock()
	p.finished(tn)
}

func (p *poller) loop() {
	defer close(p.done)
	events := make([]syscall.EpollEvent, 256)
	targets := make([]*polledTunnel, len(events))
	buf := make([]byte, pollReadSize)
	for {
		n, err := syscall.EpollWait(p.epfd, events, -1)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			p.closeFDs()
			return
		}
		if p.resolve(events[:n], targets) {
			p.closeFDs()
			return
		}
		for i, ev := range events[:n] {
			pt := targets[i]
			targets[i] = nil
			if pt != nil && !pt.closed && !p.serve(pt, int(uint32(ev.Fd)&1), ev.Events, buf) {
				p.closeTunnel(pt)
			}
		}
	}
}

// resolve finds the tunnel of each event (one lock for the batch) and
// closes those other goroutines asked to close; true when the loop is
// to stop. The wake pipe is emptied before the requests are taken: a
// request queued after the drain writes a byte that wakes the loop again,
// where draining after taking them could swallow that byte and leave the
// request waiting for an event that never comes (a tunnel never closed,
// a shutdown that never ends).
func (p *poller) resolve(events []syscall.EpollEvent, targets []*polledTunnel) (stop bool) {
	woken := false
	for _, ev := range events {
		if ev.Fd == 0 && ev.Pad == 0 {
			woken = true
		}
	}
	if woken {
		drain(p.wake[0])
	}
	p.mu.Lock()
	for i, ev := range events {
		if key := uint64(uint32(ev.Pad))<<32 | uint64(uint32(ev.Fd)); key != 0 {
			targets[i] = p.lookup(key)
		}
	}
	if !woken {
		p.mu.Unlock()
		return false
	}
	closing, stopped := p.closing, p.stopped
	p.closing = nil
	p.mu.Unlock()
	for _, pt := range closing {
		p.closeTunnel(pt)
	}
	return stopped
}

// drain empties the wake pipe.
func drain(fd int) {
	var b [64]byte
	for {
		if n, err := syscall.Read(fd, b[:]); n <= 0 && err != syscall.EINTR {
			return
		}
	}
}
