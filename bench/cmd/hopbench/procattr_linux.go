package main

import "syscall"

// childAttr makes a child die with this process, so an interrupted run
// leaves no gateway, upstream or nginx behind.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
