package main

import (
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
)

// servePprof serves the runtime's profiles and execution traces on addr
// (opt-in, PPROF_ADDR): how the latency tail of a benchmark is taken
// apart. The handlers are on a mux of their own, never the gateway's.
func servePprof(addr string) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("PPROF_ADDR: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux}
	go func() { _ = srv.Serve(ln) }()
	return func() { _ = srv.Close() }, nil
}
