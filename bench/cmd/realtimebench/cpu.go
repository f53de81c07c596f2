package main

import (
	"syscall"
	"time"
)

// selfCPUSplit is this process's user and system CPU time: the load clients' own
// cost (the servers run as child processes, which RUSAGE_SELF leaves out).
func selfCPUSplit() (user, sys time.Duration) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0
	}
	return time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())
}

// cpuMeter measures the CPU time of the clients and of the server over one
// phase.
type cpuMeter struct {
	s                *server
	start            time.Time
	client0, server0 time.Duration
	clientSys0       time.Duration
}

func startCPU(s *server) cpuMeter {
	user, sys := selfCPUSplit()
	return cpuMeter{s: s, start: time.Now(), client0: user + sys, clientSys0: sys, server0: s.cpuTime()}
}

// phaseCPU is what one phase cost: CPU time of each side and its length.
type phaseCPU struct {
	client, server, wall time.Duration
	clientSys            time.Duration // of client: in the kernel
}

func (m cpuMeter) stop() phaseCPU {
	user, sys := selfCPUSplit()
	return phaseCPU{client: user + sys - m.client0, clientSys: sys - m.clientSys0, server: m.s.cpuTime() - m.server0, wall: time.Since(m.start)}
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
