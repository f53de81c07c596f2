package main

import (
	"fmt"
	"time"
)

// traceWindow is how long -trace records, starting traceDelay into the
// steady phase (a longer trace of 10,000 deliveries/s is too large to read).
const (
	traceWindow = 5 * time.Second
	traceDelay  = 2 * time.Second
)

// traceSteady records an execution trace of our server during the steady
// phase into path (go tool trace path), from its PPROF_ADDR; done is
// closed when it is written.
func traceSteady(s *server, path string) (done chan error) {
	done = make(chan error, 1)
	go func() {
		time.Sleep(traceDelay)
		done <- fetchProfile(s.pprof, fmt.Sprintf("trace?seconds=%d", int(traceWindow.Seconds())), path)
	}()
	return done
}
