package main

import (
	"os"
	"strconv"
	"syscall"
	"unsafe"
)

// childAttr makes a child die with this process, so an interrupted run
// leaves no gateway, upstream or nginx behind.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}

// Linux scheduling policies (sched.h).
const (
	schedOther = 0
	schedRR    = 2
)

// setRealtime moves every thread of pids to SCHED_RR at priority 1 (on)
// or back to SCHED_OTHER (off). Threads started later inherit the policy
// of the thread that starts them.
func setRealtime(pids []int, on bool) error {
	policy, param := schedOther, struct{ priority int32 }{0}
	if on {
		policy, param.priority = schedRR, 1
	}
	for _, pid := range pids {
		tasks, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/task")
		if err != nil {
			return err
		}
		for _, t := range tasks {
			tid, err := strconv.Atoi(t.Name())
			if err != nil {
				continue
			}
			_, _, errno := syscall.Syscall(syscall.SYS_SCHED_SETSCHEDULER, uintptr(tid), uintptr(policy), uintptr(unsafe.Pointer(&param)))
			if errno != 0 && errno != syscall.ESRCH { // a thread may just have ended
				return errno
			}
		}
	}
	return nil
}
