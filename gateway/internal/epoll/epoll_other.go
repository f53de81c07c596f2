//go:build !linux

package epoll

import "errors"

// Supported reports whether New can work here.
const Supported = false

// Set is not available outside Linux.
type Set struct{}

// New fails outside Linux.
func New() (*Set, error) { return nil, errors.New("epoll: not supported on this system") }

func (s *Set) Watch(fd int) error             { return errors.ErrUnsupported }
func (s *Set) Wait(serve func([]int32)) error { return errors.ErrUnsupported }
func (s *Set) Close() error                   { return nil }
