package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// The requests of a turn's lead-in come back apart from the measured ones:
// a path slow to resume (here a server slow for its first 30 ms) shows in
// the lead-in, and the measured requests are the ones due after it.
func TestTurnLeadInIsKeptApart(t *testing.T) {
	t.Parallel()
	var first atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		now := time.Now().UnixNano()
		first.CompareAndSwap(0, now)
		if now-first.Load() < int64(30*time.Millisecond) {
			time.Sleep(20 * time.Millisecond)
		}
		_, _ = w.Write([]byte("ok"))
	}))
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")
	var conns []*rawConn
	for range 4 {
		c, err := dialRaw(addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.close()
		conns = append(conns, c)
	}
	// 400 requests/s: 40 in the 100 ms lead-in, 80 in the 200 ms after.
	measured, lead, fails, err := constantRate(t.Context(), conns, buildRequest(addr, nil), 400, 100*time.Millisecond, 200*time.Millisecond)
	if err != nil || fails != 0 {
		t.Fatalf("fails %d, err %v", fails, err)
	}
	if len(lead) != 40 || len(measured) != 80 {
		t.Fatalf("%d lead-in and %d measured requests, want 40 and 80", len(lead), len(measured))
	}
	if slow := slices.Max(lead); slow < 20*time.Millisecond {
		t.Fatalf("the lead-in's slowest request took %s, want the slow start's 20 ms or more", slow)
	}
}
