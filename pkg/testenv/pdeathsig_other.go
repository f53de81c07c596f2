//go:build !linux

package testenv

import "os/exec"

// setParentDeathSignal has no portable equivalent off Linux; cleanups (and
// the OS) handle the child there.
func setParentDeathSignal(*exec.Cmd) {}
