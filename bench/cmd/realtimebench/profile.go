package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"time"
)

// profile starts a CPU profile of s lasting about d (a phase) into
// dir/<phase>.pprof, with the allocations counted over the same span in
// dir/<phase>.allocs.pprof (compare with -diff_base against the one taken
// before); the returned function waits for both. Nothing happens when s
// is not profiled or dir is empty.
func (s *server) profile(dir, phase string, d time.Duration) func() {
	if s.pprof == "" || dir == "" {
		return func() {}
	}
	before := filepath.Join(dir, phase+".allocs-before.pprof")
	if err := fetchProfile(s.pprof, "allocs", before); err != nil {
		fmt.Fprintln(os.Stderr, "realtimebench: profile:", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		secs := max(int(d.Seconds()), 1)
		err := fetchProfile(s.pprof, fmt.Sprintf("profile?seconds=%d", secs), filepath.Join(dir, phase+".pprof"))
		if err == nil {
			err = fetchProfile(s.pprof, "allocs", filepath.Join(dir, phase+".allocs.pprof"))
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "realtimebench: profile:", err)
		}
	}()
	return func() { <-done }
}

// fetchProfile writes what the server's /debug/pprof/<which> answers
// (a profile, an execution trace) to path.
func fetchProfile(addr, which, path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	resp, err := http.Get("http://" + addr + "/debug/pprof/" + which)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", which, resp.Status)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		return err
	}
	return f.Close() // a write the kernel deferred can fail here
}
