//go:build !linux

package main

import "errors"

// holdPollIdle: the PM QoS interface is Linux's.
func holdPollIdle() (func(), error) { return nil, errors.ErrUnsupported }
