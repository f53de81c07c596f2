package gateway

import (
	"log/slog"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/opencollab/backend/gateway/internal/epoll"
)

// Answer loops: where the services' answers come back.
//
// A handler that waits for its service's answer parks its goroutine, and
// the answer wakes it: with the connection's own wait for the next request
// that is two parks and wakes per request, and the second cost the gateway
// about a fifth of its CPU at 2,000 requests/s (the seventeenth pass in
// docs/benchmarks/gateway-hop.md). So the handler sends the request, hands
// the exchange to an answer loop and returns (h1's AnswerLater); the
// connection's goroutine goes back to waiting for the client. A loop is a
// goroutine waiting on an epoll set of upstream connections: one wake
// serves every answer that came in together. It relays an answer that is
// whole and small (the common case) itself, without ever waiting; anything
// else (a long or chunked answer, an upgrade, a failure, a retry) goes to
// a goroutine of its own that runs the ordinary blocking code.

// answerLoops are the gateway's loops, one per CPU, started on first use.
type answerLoops struct {
	logger *slog.Logger
	once   sync.Once
	loops  []*answerLoop // nil: none could start, or turned off
	next   atomic.Uint32
	off    atomic.Bool
}

func newAnswerLoops(enabled bool, logger *slog.Logger) *answerLoops {
	ls := &answerLoops{logger: logger}
	ls.off.Store(!enabled || !epoll.Supported)
	return ls
}

// pick is a loop for a new upstream connection, nil when there are none.
func (ls *answerLoops) pick() *answerLoop {
	if ls == nil || ls.off.Load() {
		return nil
	}
	ls.once.Do(ls.start)
	if len(ls.loops) == 0 {
		return nil
	}
	return ls.loops[int(ls.next.Add(1))%len(ls.loops)]
}

func (ls *answerLoops) start() {
	for range runtime.GOMAXPROCS(0) {
		set, err := epoll.New()
		if err != nil {
			ls.logger.Warn("answer loops unavailable; answers are waited for by their handlers", "error", err)
			ls.close()
			ls.loops = nil
			return
		}
		l := &answerLoop{set: set, conns: map[int32]*upConn{}, done: make(chan struct{})}
		ls.loops = append(ls.loops, l)
		go l.run()
	}
}

// stop ends the loops; exchanges still pending are finished by goroutines.
func (ls *answerLoops) stop() {
	if ls == nil {
		return
	}
	ls.off.Store(true)
	ls.once.Do(func() {}) // none start after this
	ls.close()
}

func (ls *answerLoops) close() {
	for _, l := range ls.loops {
		_ = l.set.Close()
		<-l.done
	}
}

// answerLoop serves the answers of the upstream connections it watches.
type answerLoop struct {
	set   *epoll.Set
	mu    sync.Mutex
	conns map[int32]*upConn // by descriptor
	done  chan struct{}
	// relayed counts the answers the loop relayed itself.
	relayed atomic.Int64
}

// watch adds u to the loop, once per connection.
func (l *answerLoop) watch(u *upConn) bool {
	fd := u.src.fd
	if fd < 0 || l.set.Watch(fd) != nil {
		return false
	}
	l.mu.Lock()
	l.conns[int32(fd)] = u
	l.mu.Unlock()
	u.loop = l
	return true
}

// forget drops a connection about to close.
func (l *answerLoop) forget(u *upConn) {
	l.mu.Lock()
	if l.conns[int32(u.src.fd)] == u {
		delete(l.conns, int32(u.src.fd))
	}
	l.mu.Unlock()
}

func (l *answerLoop) run() {
	defer close(l.done)
	_ = l.set.Wait(func(fds []int32) {
		for _, fd := range fds {
			l.mu.Lock()
			u := l.conns[fd]
			l.mu.Unlock()
			if u != nil {
				u.answerReady()
			}
		}
	})
	// Closed: hand what is pending to goroutines.
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, u := range l.conns {
		if ex := u.pending.Load(); ex != nil && ex.state.Load() == exWaiting {
			u.pending.Store(nil)
			go ex.relayBlocking()
		}
	}
}

// relayed is how many answers the loops relayed themselves.
func (ls *answerLoops) relayed() int64 {
	if ls == nil || ls.off.Load() {
		return 0
	}
	ls.once.Do(ls.start) // orders the read of loops after their start
	var n int64
	for _, l := range ls.loops {
		n += l.relayed.Load()
	}
	return n
}
