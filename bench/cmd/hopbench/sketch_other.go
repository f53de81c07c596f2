//go:build !linux

package main

import (
	"context"
	"errors"
)

func runSketch(context.Context, string, bool) error {
	return errors.New("the sketch target runs on Linux only (epoll)")
}

func runSplit(context.Context, string, bool) error {
	return errors.New("the split target runs on Linux only (epoll)")
}
