//go:build !unix

package nbio

import "syscall"

const supported = false

// Read and Write are unix only; New returns nil here.
func Read(int, []byte) (int, error)  { return 0, syscall.EINVAL }
func Write(int, []byte) (int, error) { return 0, syscall.EINVAL }
