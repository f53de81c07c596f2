package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// While the request is held no CPU enters an idle state with any exit
// latency: the usage counters of every CPU's non-polling states stand
// still (the POLL state has latency 0).
func TestPollIdleKeepsCPUsOutOfHalt(t *testing.T) {
	states, _ := filepath.Glob("/sys/devices/system/cpu/cpu[0-9]*/cpuidle/state*")
	var halting []string
	for _, s := range states {
		if readSys(t, s, "latency") > 0 && readSys(t, s, "disable") == 0 {
			halting = append(halting, s)
		}
	}
	if len(halting) == 0 {
		t.Skip("no cpuidle state with an exit latency to keep the CPUs out of")
	}
	release, err := holdPollIdle()
	if os.IsPermission(err) || os.IsNotExist(err) {
		t.Skipf("%s: %v", cpuLatencyQoS, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond) // a CPU already halted wakes first
	before := usage(t, halting)
	time.Sleep(300 * time.Millisecond) // idle, as the test mostly sleeps
	after := usage(t, halting)
	release()
	if after != before {
		t.Errorf("halting idle states entered %d times while the request was held", after-before)
	}
}

func usage(t *testing.T, states []string) int64 {
	var n int64
	for _, s := range states {
		n += readSys(t, s, "usage")
	}
	return n
}

func readSys(t *testing.T, dir, name string) int64 {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return 0 // an older kernel without the file
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		t.Fatalf("%s/%s: %v", dir, name, err)
	}
	return n
}
