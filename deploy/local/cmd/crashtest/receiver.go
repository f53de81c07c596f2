package main

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"
)

// receiver is the webhook endpoint: it answers 204 and counts the
// deliveries of each activity id.
type receiver struct {
	srv *http.Server
	url string

	mu   sync.Mutex
	seen map[string]int // activity id → deliveries
}

func startReceiver() (*receiver, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	r := &receiver{url: "http://" + ln.Addr().String() + "/hook", seen: map[string]int{}}
	r.srv = &http.Server{Handler: r, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := r.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			slog.Error("webhook receiver stopped", "error", err)
		}
	}()
	return r, nil
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(req.Body)
	if err != nil {
		http.Error(w, "read body", http.StatusBadRequest)
		return
	}
	var msg struct {
		Data struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if json.Unmarshal(body, &msg) == nil && msg.Data.ID != "" {
		r.mu.Lock()
		r.seen[msg.Data.ID]++
		r.mu.Unlock()
	}
	w.WriteHeader(http.StatusNoContent)
}

// deliveredOf counts the ids that arrived at least once.
func (r *receiver) deliveredOf(ids []string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, id := range ids {
		if r.seen[id] > 0 {
			n++
		}
	}
	return n
}

// duplicateCount is the deliveries beyond the first of each id.
func (r *receiver) duplicateCount() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, c := range r.seen {
		n += c - 1
	}
	return n
}

func (r *receiver) close() { _ = r.srv.Close() }
