package testenv

import (
	"os/exec"
	"syscall"
)

// setParentDeathSignal kills the child if the test binary dies without
// running cleanups (test timeout panic, SIGKILL), so no redis-server lingers.
func setParentDeathSignal(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
