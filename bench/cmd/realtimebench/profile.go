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

// snapshot writes what the server holds at a point of the run (phase:
// before or after the connections) into dir: its live heap
// (<phase>.heap.pprof, taken after a collection; compare with -diff_base,
// and run with GODEBUG=memprofilerate=1 for every allocation rather than
// a sample of them), the same as text with the runtime's memory
// statistics at its end (<phase>.heap.txt), and its goroutines
// (<phase>.goroutines.txt), and its memory mappings with what of each is
// resident (<phase>.smaps.txt: memory outside Go's heap, e.g. the
// embedded SQLite's, shows there). Taken after the resident memory was read,
// as the collection changes it. Nothing happens when s is not profiled or
// dir is empty.
func (s *server) snapshot(dir, phase string) {
	if s.pprof == "" || dir == "" {
		return
	}
	smaps, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps", s.pid()))
	if err == nil {
		err = os.MkdirAll(dir, 0o755)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, phase+".smaps.txt"), smaps, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "realtimebench: profile:", err)
	}
	for which, file := range map[string]string{
		"heap?gc=1":         phase + ".heap.pprof",
		"heap?debug=1":      phase + ".heap.txt",
		"goroutine?debug=1": phase + ".goroutines.txt",
	} {
		if err := fetchProfile(s.pprof, which, filepath.Join(dir, file)); err != nil {
			fmt.Fprintln(os.Stderr, "realtimebench: profile:", err)
		}
	}
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
