//go:build !linux

package main

import (
	"errors"
	"syscall"
)

// childAttr: only Linux can tie a child's life to its parent's.
func childAttr() *syscall.SysProcAttr { return nil }

// setRealtime: real-time scheduling is only set on Linux.
func setRealtime([]int, bool) error { return errors.ErrUnsupported }
