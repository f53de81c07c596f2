package server

import (
	"context"
	"io"
	"net/http"
	"testing"
	"time"
)

func TestServeAndGracefulShutdown(t *testing.T) {
	s, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	started := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-release
		_, _ = io.WriteString(w, "done")
	})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, h) }()

	got := make(chan string, 1)
	go func() {
		resp, err := http.Get(s.URL())
		if err != nil {
			got <- "error: " + err.Error()
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		got <- string(b)
	}()
	<-started
	cancel() // shutdown begins while a request is in flight
	time.Sleep(50 * time.Millisecond)
	close(release)
	if body := <-got; body != "done" {
		t.Fatalf("in-flight request: got %q, want done", body)
	}
	if err := <-served; err != nil {
		t.Fatalf("Serve returned %v, want nil", err)
	}
	if _, err := http.Get(s.URL()); err == nil {
		t.Fatal("server still accepting after shutdown")
	}
}

func TestListenBadAddress(t *testing.T) {
	if _, err := Listen("256.0.0.1:99999"); err == nil {
		t.Fatal("want error for a bad address")
	}
}
