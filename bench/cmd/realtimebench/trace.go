package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
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
		done <- fetchTrace(fmt.Sprintf("http://%s/debug/pprof/trace?seconds=%d", s.pprof, int(traceWindow.Seconds())), path)
	}()
	return done
}

func fetchTrace(url, path string) error {
	resp, err := http.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("trace: %s", resp.Status)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
