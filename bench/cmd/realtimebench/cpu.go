package main

import (
	"syscall"
	"time"
)

// selfCPU is this process's user+system CPU time: the load clients' own
// cost (the servers run as child processes, which RUSAGE_SELF leaves out).
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuMeter measures the CPU time of the clients and of the server over one
// phase.
type cpuMeter struct {
	s                *server
	start            time.Time
	client0, server0 time.Duration
}

func startCPU(s *server) cpuMeter {
	return cpuMeter{s: s, start: time.Now(), client0: selfCPU(), server0: s.cpuTime()}
}

// phaseCPU is what one phase cost: CPU time of each side and its length.
type phaseCPU struct {
	client, server, wall time.Duration
}

func (m cpuMeter) stop() phaseCPU {
	return phaseCPU{client: selfCPU() - m.client0, server: m.s.cpuTime() - m.server0, wall: time.Since(m.start)}
}

// cores is how many cores' worth of CPU a side used.
func (p phaseCPU) cores(d time.Duration) float64 {
	if p.wall <= 0 {
		return 0
	}
	return d.Seconds() / p.wall.Seconds()
}

// per divides a side's CPU time by n updates.
func per(d time.Duration, n float64) time.Duration {
	if n <= 0 {
		return 0
	}
	return time.Duration(float64(d) / n)
}
