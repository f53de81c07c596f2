package realtime

import (
	"runtime"
	"sync/atomic"
	"unsafe"
)

// readWorkers run the reads of readable sockets. A goroutine that has
// read a socket stays parked for the next one instead of exiting: a
// goroutine started per readiness cost a start, and its stack grew again
// on every message (the read, apply and relay path needs several KiB),
// some 5 % of the process's CPU at saturation. Only a few stay parked
// (maxIdleReadWorkers), so idle connections still hold no goroutine;
// when none is idle a new one starts, so a handler that waits (a sender
// held back by the store, a token check) never holds up other sockets.
type readWorkers struct {
	work chan *conn // unbuffered: a send succeeds only into a parked worker
	idle atomic.Int32
	max  int32
	// started counts the workers started because none was parked: what
	// tests read to see that a message does not start a goroutine.
	started atomic.Int64
	// reading counts the workers reading a socket now; the last to finish
	// has what was held for a burst written at once (readersIdle).
	reading atomic.Int32
}

func newReadWorkers() *readWorkers {
	return &readWorkers{work: make(chan *conn), max: maxIdleReadWorkers()}
}

// maxIdleReadWorkers: enough for most sockets that turn readable within
// one epoll wait (up to 128) to find a parked worker. With 4 per CPU,
// bursts at saturation still started readers: stack growth was 8.2 % of
// the process's CPU there, 5.4 % with 16 (one profile each, busy machine;
// 9.6 % with a goroutine per readiness). Parked stacks are shared by all
// connections: some KiB each, not per connection.
func maxIdleReadWorkers() int32 { return int32(16 * runtime.GOMAXPROCS(0)) }

// dispatch has c's socket read by a parked worker, or a new one.
func (w *readWorkers) dispatch(c *conn) {
	select {
	case w.work <- c:
	default:
		w.started.Add(1)
		go w.run(c)
	}
}

// run reads c, then parks for the next socket while fewer than max are
// parked.
func (w *readWorkers) run(c *conn) {
	var grown uintptr // where stackAt was after the stack was last grown
	for {
		if stackAt() != grown { // a new stack, or one moved since
			growReadStack(0)
			grown = stackAt()
		}
		w.reading.Add(1)
		c.readReady()
		if w.reading.Add(-1) == 0 {
			sharedFlusher().readersIdle()
		}
		if w.idle.Add(1) > w.max {
			w.idle.Add(-1)
			return
		}
		c = <-w.work
		w.idle.Add(-1)
	}
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
