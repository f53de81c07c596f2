package gateway

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
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
	kind   string
	stdlib *server.Server
	ln     net.Listener
}

// ListenInbound binds addr for the server kind (a Config.HTTPServer value;
// "" is the default, h1).
func ListenInbound(kind, addr string) (*Inbound, error) {
	if err := checkInbound(kind); err != nil {
		return nil, err
	}
	if kind == InboundNetHTTP {
		s, err := server.Listen(addr)
		return &Inbound{kind: InboundNetHTTP, stdlib: s}, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	return &Inbound{kind: InboundH1, ln: ln}, nil
}

// Addr is the bound address.
func (i *Inbound) Addr() string {
	if i.stdlib != nil {
		return i.stdlib.Addr()
	}
	return i.ln.Addr().String()
}

// Serve serves h until ctx ends, then drains in-flight requests within
// 10 s, with the limits pkg/server gives net/http.
func (i *Inbound) Serve(ctx context.Context, h http.Handler) error {
	if i.stdlib != nil {
		return i.stdlib.Serve(ctx, h)
	}
	srv := newH1Server(h)
	srv.BaseContext = func(net.Listener) context.Context { return context.WithoutCancel(ctx) }
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(i.ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	slog.InfoContext(ctx, "shutting down", "addr", i.Addr())
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

func newH1Server(h http.Handler) *h1.Server {
	return &h1.Server{
		Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 60 * time.Second,
		WriteTimeout: 120 * time.Second, IdleTimeout: 120 * time.Second, MaxHeaderBytes: 64 << 10,
	}
}
