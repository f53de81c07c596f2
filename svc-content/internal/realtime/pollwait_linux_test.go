package realtime

import (
	"bytes"
	"runtime"
	"testing"
	"time"
)

// The poller's loop waits in the runtime's network poller ("IO wait"),
// not in a blocking epoll_wait ("syscall"), which kept a P from running
// the reads it had just started (see pollWaiter).
func TestPollerWaitsInTheRuntimesPoller(t *testing.T) {
	if sharedPoller() == nil {
		t.Skip("no epoll")
	}
	var state string
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if state = pollerLoopState(); state == "IO wait" {
			return
		}
	}
	t.Fatalf("the poller's loop waits in state %q, want \"IO wait\"", state)
}

// pollerLoopState is the state the goroutine dump gives the poller's loop.
func pollerLoopState() string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	for _, g := range bytes.Split(buf, []byte("\n\n")) {
		if !bytes.Contains(g, []byte("(*readPoller).loop")) {
			continue
		}
		head, _, _ := bytes.Cut(g, []byte("\n"))
		_, state, _ := bytes.Cut(head, []byte("["))
		state, _, _ = bytes.Cut(state, []byte("]"))
		state, _, _ = bytes.Cut(state, []byte(","))
		return string(state)
	}
	return "not found"
}
