package main

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// receiver is the webhook endpoint: a loopback HTTP server that answers
// 204 at once, notes when each delivery arrived and checks it.
type receiver struct {
	srv *http.Server
	url string

	mu      sync.Mutex
	key     []byte                    // HMAC key of the endpoint's secret
	waiting map[string]chan time.Time // activity id → its sender
	seen    map[string]struct{}       // webhook-ids delivered so far
	c       checks
}

// checks counts what the receiver found wrong, or merely noteworthy.
type checks struct {
	received     int // requests
	noHeaders    int // without webhook-id, webhook-timestamp or webhook-signature
	badSignature int // headers present, no v1 signature matching the body
	duplicates   int // a webhook-id delivered before
	unmatched    int // no activity waiting for it (late, a duplicate, or not ours)
}

func startReceiver() (*receiver, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	r := &receiver{url: "http://" + ln.Addr().String() + "/hook", waiting: map[string]chan time.Time{}, seen: map[string]struct{}{}}
	r.srv = &http.Server{Handler: r, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := r.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			slog.Error("webhook receiver stopped", "error", err)
		}
	}()
	return r, nil
}

// setSecret takes the endpoint's "whsec_<base64 key>" secret.
func (r *receiver) setSecret(secret string) error {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil || !strings.HasPrefix(secret, "whsec_") {
		return errors.New("endpoint secret is not whsec_<base64>")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.key = key
	return nil
}

// expect registers activity id before it is sent; its arrival time comes
// on the channel (buffered: the handler never blocks on a slow sender).
func (r *receiver) expect(id string) <-chan time.Time {
	ch := make(chan time.Time, 1)
	r.mu.Lock()
	r.waiting[id] = ch
	r.mu.Unlock()
	return ch
}

// forget stops waiting for id; a later delivery of it counts unmatched.
func (r *receiver) forget(id string) {
	r.mu.Lock()
	delete(r.waiting, id)
	r.mu.Unlock()
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	at := time.Now() // before reading the body: the delivery has arrived
	body, err := io.ReadAll(req.Body)
	if err != nil {
		http.Error(w, "read body", http.StatusBadRequest)
		return
	}
	// Answer first, as a receiver that queues its work would; the checks
	// below are not part of the measured delay.
	w.WriteHeader(http.StatusNoContent)

	var msg struct {
		Data struct {
			ID string `json:"id"` // the activity id the sender chose
		} `json:"data"`
	}
	_ = json.Unmarshal(body, &msg) // an unreadable body only goes unmatched
	id, ts, sig := req.Header.Get("webhook-id"), req.Header.Get("webhook-timestamp"), req.Header.Get("webhook-signature")

	r.mu.Lock()
	defer r.mu.Unlock()
	r.c.received++
	switch {
	case id == "" || ts == "" || sig == "":
		r.c.noHeaders++
	case !signed(r.key, id, ts, body, sig):
		r.c.badSignature++
	}
	if id != "" {
		if _, dup := r.seen[id]; dup {
			r.c.duplicates++
			slog.Warn("duplicate delivery", "webhookId", id)
		}
		r.seen[id] = struct{}{}
	}
	if ch, ok := r.waiting[msg.Data.ID]; ok {
		delete(r.waiting, msg.Data.ID) // a duplicate must not count as a second arrival
		ch <- at
	} else {
		r.c.unmatched++
	}
}

// signed reports whether one of the space-separated "v1,<base64>"
// signatures is the HMAC-SHA256 of "id.timestamp.body" (Standard Webhooks).
func signed(key []byte, id, ts string, body []byte, header string) bool {
	if key == nil {
		return false
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + ts + "."))
	mac.Write(body)
	want := mac.Sum(nil)
	for _, s := range strings.Fields(header) {
		v, b64, ok := strings.Cut(s, ",")
		if !ok || v != "v1" {
			continue
		}
		if got, err := base64.StdEncoding.DecodeString(b64); err == nil && hmac.Equal(got, want) {
			return true
		}
	}
	return false
}

func (r *receiver) stats() checks {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.c
}

func (r *receiver) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := r.srv.Shutdown(ctx); err != nil {
		slog.Warn("webhook receiver shutdown", "error", err)
	}
}
