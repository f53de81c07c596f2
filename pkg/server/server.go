// Package server runs an HTTP server the way every binary here does: it
// listens first (so a caller knows the address and a bad port fails at
// start), serves until the context ends, then drains in-flight requests
// within a timeout.
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// Server is a listener waiting to serve.
type Server struct {
	ln              net.Listener
	shutdownTimeout time.Duration
}

// Listen binds addr (host:port; port 0 picks a free one).
func Listen(addr string) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	return &Server{ln: ln, shutdownTimeout: 10 * time.Second}, nil
}

// Addr is the bound address, e.g. 127.0.0.1:43121.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// URL is http://Addr.
func (s *Server) URL() string { return "http://" + s.Addr() }

// SetShutdownTimeout changes how long Serve waits for in-flight requests.
func (s *Server) SetShutdownTimeout(d time.Duration) { s.shutdownTimeout = d }

// Serve serves h with net/http until ctx is done, then shuts down
// gracefully. It returns nil after a clean shutdown.
func (s *Server) Serve(ctx context.Context, h http.Handler) error {
	return s.Run(ctx, &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      120 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	})
}

// Runner is an HTTP server Run can drive: net/http's, or another with the
// same Serve/Shutdown contract (the gateway's lean inbound server).
type Runner interface {
	Serve(net.Listener) error
	Shutdown(context.Context) error
}

// Run serves the listener with srv until ctx is done, then drains
// in-flight requests within the shutdown timeout. It returns nil after a
// clean shutdown.
func (s *Server) Run(ctx context.Context, srv Runner) error {
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(s.ln) }()

	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	slog.InfoContext(ctx, "shutting down", "addr", s.Addr())
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}
