package gateway

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/opencollab/backend/gateway/internal/h1"
	"github.com/opencollab/backend/pkg/server"
)

// Inbound servers: the gateway's lean HTTP/1.1 server (the default), which
// reuses each connection's request, headers and buffers and answers in one
// write (internal/h1), or net/http.
const (
	InboundNetHTTP = "net/http"
	InboundH1      = "h1"
	// inboundService is h1 serving a service's handler (ListenServiceH1).
	inboundService = "h1 service"
)

func checkInbound(kind string) error {
	switch kind {
	case "", InboundNetHTTP, InboundH1:
		return nil
	}
	return fmt.Errorf("HTTP_SERVER must be %q or %q, not %q", InboundNetHTTP, InboundH1, kind)
}

// Inbound is the gateway's listening socket and the server that will
// serve it.
type Inbound struct {
	kind string
	srv  *server.Server
}

// ListenInbound binds addr for the server kind (a Config.HTTPServer value;
// "" is the default, h1).
func ListenInbound(kind, addr string) (*Inbound, error) {
	if err := checkInbound(kind); err != nil {
		return nil, err
	}
	s, err := server.Listen(addr)
	if err != nil {
		return nil, err
	}
	if kind == "" {
		kind = InboundH1
	}
	return &Inbound{kind: kind, srv: s}, nil
}

// ListenServiceH1 binds addr for h1 serving a service's handler rather
// than the gateway's: every request's header map is filled (a Gin service
// reads r.Header), with the limits pkg/server gives net/http. hopbench
// uses it to measure a service on h1 (-upstream-server h1); our services
// run on pkg/server's net/http.
func ListenServiceH1(addr string) (*Inbound, error) {
	s, err := server.Listen(addr)
	if err != nil {
		return nil, err
	}
	return &Inbound{kind: inboundService, srv: s}, nil
}

// Addr is the bound address.
func (i *Inbound) Addr() string { return i.srv.Addr() }

// Serve serves h until ctx ends, then drains in-flight requests within
// 10 s (pkg/server), h1 with the limits pkg/server gives net/http.
func (i *Inbound) Serve(ctx context.Context, h http.Handler) error {
	if i.kind == InboundNetHTTP {
		return i.srv.Serve(ctx, h)
	}
	srv := newH1Server(h)
	srv.ListFields = i.kind == InboundH1
	srv.BaseContext = func(net.Listener) context.Context { return context.WithoutCancel(ctx) }
	return i.srv.Run(ctx, srv)
}

func newH1Server(h http.Handler) *h1.Server {
	return &h1.Server{
		Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 60 * time.Second,
		WriteTimeout: 120 * time.Second, IdleTimeout: 120 * time.Second, MaxHeaderBytes: 64 << 10,
		ListFields: true, // the gateway reads the fields from h1.RequestFields
	}
}
