package main

import (
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"unsafe"
)

// childEnv marks the re-executed stack.
const childEnv = "COLLAB_LOCAL_FOREGROUND_CHILD"

// runInForeground re-executes this program in a process group of its own
// that it makes the terminal's foreground group, and returns its exit
// code; ok is false when there is no terminal (or this is the child).
//
// Why: Ctrl-C signals the terminal's whole foreground group. Under
// `make run` that includes make, which then reports the interrupt and
// exits non-zero even though the stack stopped cleanly. With the stack
// alone in the foreground, only it sees Ctrl-C, stops, and exits 0, and
// so do make and this launcher.
func runInForeground() (code int, ok bool) {
	if os.Getenv(childEnv) != "" || !isTerminal(0) {
		return 0, false
	}
	self, err := os.Executable()
	if err != nil {
		return 0, false
	}
	cmd := exec.Command(self, os.Args[1:]...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Foreground: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		return 0, false
	}
	// After the start, so the child does not inherit them ignored.
	signal.Ignore(syscall.SIGTTOU, syscall.SIGINT)
	err = cmd.Wait()
	// Take the terminal back, so the shell's job control is as it was.
	pgrp := syscall.Getpgrp()
	_, _, _ = syscall.Syscall(syscall.SYS_IOCTL, 0, syscall.TIOCSPGRP, uintptr(unsafe.Pointer(&pgrp)))
	if err == nil {
		return 0, true
	}
	if ee, isExit := err.(*exec.ExitError); isExit {
		return ee.ExitCode(), true
	}
	return 1, true
}

func isTerminal(fd uintptr) bool {
	var pgrp int32
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCGPGRP, uintptr(unsafe.Pointer(&pgrp)))
	return errno == 0
}
