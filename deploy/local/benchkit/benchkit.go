// Package benchkit is what the tools that drive the local system share: the
// benchmarks of the bench module (bench/cmd) and the reliability tools of
// deploy/local/cmd. It gives progress lines, the machine's load and CPU
// profiling, and a Client of the gateway of a system.Start'ed backend. It
// is exported so that tools outside this module need none of its
// internals.
package benchkit

import (
	"fmt"
	"os"
	"runtime/pprof"
	"strings"
	"time"
)

// Progress tells the terminal where a long run is, on stderr; the tables go
// to stdout.
func Progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}

// Verdict is how a benchmark's goal line says whether this run met the
// goal: "met" or "MISSED", capitals so a miss stands out in a table.
func Verdict(met bool) string {
	if met {
		return "met"
	}
	return "MISSED"
}

// LoadAverage is the 1, 5 and 15 minute load average, as uptime shows it:
// the machine is shared, so the figures mean little without it.
func LoadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], ", ")
}

// WithCPUProfile runs run with the process (the embedded services
// included) profiled to path when path is set.
func WithCPUProfile(path string, run func() error) error {
	if path == "" {
		return run()
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := pprof.StartCPUProfile(f); err != nil {
		return err
	}
	defer pprof.StopCPUProfile()
	return run()
}
