package realtime

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// readWorkers run the reads of readable sockets. A goroutine that has
// read a socket stays parked for the next one instead of exiting: a
// goroutine started per readiness cost a start, and its stack grew again
// on every message (the read, apply and relay path needs several KiB),
// some 5 % of the process's CPU at saturation. Only a few stay parked
// (maxIdleReadWorkers), so idle connections still hold no goroutine.
//
// At most busyMax workers read at once; the sockets that turn readable
// meanwhile wait in the backlog, which a worker takes from before it
// parks. A saturated replica's epoll waits report dozens of sockets at
// once (its clients answer a group commit's acknowledgements together):
// handed to a worker each, they started ~0.9 goroutines per update
// received (more than the parked ones) and woke one per socket, for no
// more CPUs. A handler that waits (a sender held back by the store, a
// token check) holds up the backlog for at most backlogStall: when no
// worker took from it for that long, each socket waiting gets a worker
// of its own (see stallWatch).
type readWorkers struct {
	work    chan *conn // unbuffered: each send meets a worker committed to receive
	max     int32      // parked workers kept
	busyMax int32

	mu sync.Mutex
	// idle counts the workers parked or about to park (changed under mu;
	// tests read it).
	idle    atomic.Int32
	busy    int32   // workers reading a socket (mu)
	backlog []*conn // readable sockets waiting for a worker from head on (mu)
	head    int
	taken   uint64 // sockets taken from the backlog: progress (mu)
	// stall wakes stallWatch: the backlog became non-empty.
	stall chan struct{}
	// started counts the workers started: what tests read to see that a
	// message does not start a goroutine.
	started atomic.Int64
}

func newReadWorkers() *readWorkers {
	w := &readWorkers{work: make(chan *conn), max: maxIdleReadWorkers(),
		busyMax: int32(2 * runtime.GOMAXPROCS(0)), stall: make(chan struct{}, 1)}
	go w.stallWatch()
	return w
}

// maxIdleReadWorkers: enough for a burst's sockets to find a parked
// worker while fewer than busyMax read. Parked stacks are shared by all
// connections: some KiB each, not per connection.
func maxIdleReadWorkers() int32 { return int32(16 * runtime.GOMAXPROCS(0)) }

// dispatch has c's socket read by a parked worker or a new one, or, while
// busyMax workers read, by the first of them to finish.
func (w *readWorkers) dispatch(c *conn) {
	w.mu.Lock()
	if w.busy >= w.busyMax {
		w.backlog = append(w.backlog, c)
		first := len(w.backlog)-w.head == 1
		w.mu.Unlock()
		if first {
			select {
			case w.stall <- struct{}{}:
			default:
			}
		}
		return
	}
	w.busy++
	w.assignLocked(c)
}

// assignLocked hands c to a parked worker or starts one (w.mu held;
// released). busy counts c already.
func (w *readWorkers) assignLocked(c *conn) {
	if w.idle.Load() > 0 {
		w.idle.Add(-1)
		w.mu.Unlock()
		w.work <- c // the worker counted idle receives at once
		return
	}
	w.mu.Unlock()
	w.started.Add(1)
	go w.run(c)
}

// run reads c, then the backlog, then parks for the next socket while
// fewer than max are parked.
func (w *readWorkers) run(c *conn) {
	var grown uintptr // where stackAt was after the stack was last grown
	for c != nil {
		if stackAt() != grown { // a new stack, or one moved since
			growReadStack(0)
			grown = stackAt()
		}
		c.readReady()
		c = w.next()
	}
}

// next is the next socket of a worker that finished one: the backlog's
// oldest, else one handed over once parked; nil: the worker ends.
func (w *readWorkers) next() *conn {
	w.mu.Lock()
	if w.head < len(w.backlog) {
		c := w.takeLocked()
		w.mu.Unlock()
		return c
	}
	w.busy--
	last := w.busy == 0
	park := w.idle.Load() < w.max
	if park {
		w.idle.Add(1)
	}
	w.mu.Unlock()
	if last {
		sharedFlusher().readersIdle()
	}
	if !park {
		return nil
	}
	return <-w.work
}

// takeLocked takes the backlog's oldest socket (w.mu held).
func (w *readWorkers) takeLocked() *conn {
	c := w.backlog[w.head]
	w.backlog[w.head] = nil
	w.head++
	if w.head == len(w.backlog) {
		w.head = 0
		w.backlog = w.backlog[:0]
		if cap(w.backlog) > maxKeptBacklog {
			w.backlog = nil
		}
	}
	w.taken++
	return c
}

// maxKeptBacklog bounds the backlog array kept for the next burst.
const maxKeptBacklog = 1024

// backlogStall is how long the backlog may go untaken before each socket
// waiting in it gets a worker of its own: stallTicks timer ticks.
const (
	backlogStall = 3 * stallTick
	stallTick    = time.Millisecond
	stallTicks   = int(backlogStall / stallTick)
)

// stallWatch gives each socket of a backlog that no worker took from
// for backlogStall a worker of its own: every busy worker waits (for the
// store, a token check), and a socket must not wait for that. The wait
// is checked tick by tick: one without progress may only mean that the
// workers were runnable and not run (a busy process or machine), and a
// tick that fired late means the process was not running at all, which
// proves nothing either (with one tick of 1 ms as the whole wait, the
// package's tests beside others started 0.06-0.09 workers per update so).
// One goroutine for the process, parked while the backlog is empty.
func (w *readWorkers) stallWatch() {
	t := time.NewTimer(stallTick)
	t.Stop()
	for range w.stall {
		w.mu.Lock()
		seen := w.taken
		w.mu.Unlock()
		for quiet, waiting := 0, true; waiting; {
			due := time.Now().Add(stallTick)
			t.Reset(stallTick)
			<-t.C
			taken := seen
			if time.Since(due) > stallTick/2 {
				quiet = 0 // late: the process did not run
			} else {
				quiet++
			}
			seen, waiting = w.unstall(seen, quiet >= stallTicks)
			if seen != taken {
				quiet = 0
			}
		}
	}
}

// unstall starts a worker for each socket in the backlog when stalled
// and none was taken since seen (the count of sockets taken then); it
// returns the count now and whether sockets still wait.
func (w *readWorkers) unstall(seen uint64, stalled bool) (uint64, bool) {
	w.mu.Lock()
	if taken := w.taken; w.head == len(w.backlog) || taken != seen || !stalled {
		waiting := w.head < len(w.backlog)
		w.mu.Unlock()
		return taken, waiting
	}
	for w.head < len(w.backlog) {
		c := w.takeLocked()
		w.busy++
		w.assignLocked(c)
		w.mu.Lock()
	}
	taken := w.taken
	w.mu.Unlock()
	return taken, false
}

// readStackPad makes a worker's stack big enough for the read, apply and
// relay path of an update before it starts (an 8 KiB stack: the path
// measured some 4 KiB below the worker's loop, the runtime's calls below
// it and its guard take the rest).
const readStackPad = 6 << 10

// growReadStack grows the calling worker's stack at once to hold
// readStackPad: a new goroutine's stack, or one the GC halved while the
// worker was parked, then grows here, with two frames to copy and
// adjust, instead of a dozen frames down the update path (in
// readHPMessage, in the Yjs apply): runtime.newstack was 8.8 % of the
// server's CPU in a saturation profile on the busy machine, 1.9 % (in
// growReadStack) after. Zeroing the pad costs some 0.1-0.3 µs, so the
// worker calls it only when its stack moved.
//
//go:noinline
func growReadStack(i int) byte {
	var pad [readStackPad]byte
	pad[i] = 1 // used: the frame is not optimised away
	return pad[i/2]
}

// stackAt is where the caller's frame lies: it changes when the
// goroutine's stack is moved, to grow or shrink (a new stack is taken
// while the old one is in use, so a moved stack is not where it was).
//
//go:noinline
func stackAt() uintptr {
	var here byte
	return uintptr(unsafe.Pointer(&here))
}
