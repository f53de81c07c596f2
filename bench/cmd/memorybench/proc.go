package main

import (
	"os"
	"runtime"
	"strings"
	"syscall"
	"time"
)

// What the process and the machine look like. The whole system (stores,
// services, gateway) and the load generator share this one process, so
// its RSS is the stack's memory, and on a shared machine the load average
// says how much of the measured time was spent waiting for a CPU.

// cpuTime is this process's user+system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// memory is the process's memory at one moment.
type memory struct {
	rss, peak string // VmRSS and VmHWM as /proc/self/status shows them
	heap      uint64 // Go heap in use, bytes: what of the RSS is Go's
}

func readMemory() memory {
	m := memory{rss: "unknown", peak: "unknown"}
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			k, v, ok := strings.Cut(line, ":")
			switch {
			case !ok:
			case k == "VmRSS":
				m.rss = strings.TrimSpace(v)
			case k == "VmHWM":
				m.peak = strings.TrimSpace(v)
			}
		}
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	m.heap = ms.HeapInuse
	return m
}
