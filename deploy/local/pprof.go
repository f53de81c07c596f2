package main

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/opencollab/backend/pkg/server"
)

// servePprof serves the process's profiles on addr until ctx ends; no
// address, no listener. It listens before it returns, so a bad address
// fails the start.
func servePprof(ctx context.Context, addr string) error {
	if addr == "" {
		return nil
	}
	srv, err := server.Listen(addr)
	if err != nil {
		return err
	}
	// A profile still being taken at shutdown is not worth waiting for.
	srv.SetShutdownTimeout(time.Second)
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace) // realtimebench -trace
	go func() {
		if err := srv.Serve(ctx, mux); err != nil {
			slog.Warn("pprof server ended", "error", err)
		}
	}()
	return nil
}
