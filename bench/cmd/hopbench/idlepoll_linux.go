package main

import "os"

// cpuLatencyQoS is the kernel's PM QoS request for the CPUs' wake-up
// latency: while a process holds it open with a value written, no CPU
// enters an idle state slower to leave than that (Documentation/power/
// pm_qos_interface.rst).
const cpuLatencyQoS = "/dev/cpu_dma_latency"

// holdPollIdle asks for a wake-up latency of 0 until release is called:
// idle CPUs then poll (the cpuidle POLL state) instead of halting. On a
// virtual machine a halted CPU is woken through the host, tens of µs to
// milliseconds when the host is busy, and a request through a proxy
// wakes one twice more than a direct one (sixteenth pass in
// docs/benchmarks/gateway-hop.md). Needs root.
func holdPollIdle() (release func(), err error) {
	f, err := os.OpenFile(cpuLatencyQoS, os.O_WRONLY, 0)
	if err != nil {
		return nil, err
	}
	var zero [4]byte // a native int32 0: the kernel reads 4 bytes as a number
	if _, err := f.Write(zero[:]); err != nil {
		_ = f.Close()
		return nil, err
	}
	return func() { _ = f.Close() }, nil // the request ends with the file
}
