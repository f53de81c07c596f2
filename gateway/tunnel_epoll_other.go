//go:build !linux

package gateway

import "errors"

// poller is Linux's epoll relay (tunnel_epoll_linux.go); elsewhere every
// tunnel copies with two goroutines.
type poller struct{}

type polledTunnel struct{}

func newPoller(func(*tunnel)) (*poller, error) {
	return nil, errors.New("gateway: no epoll on this system")
}

func (*poller) add(*tunnel) bool { return false }

func (*poller) closeSoon(*polledTunnel) {}

func (*poller) stop() {}
