package gateway

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// Answers relayed by answer loops (answerloop.go, answerlater.go). The
// whole suite runs with them (the h1 run) and without (h1-waiting); these
// tests aim at what only the loops do: answers that come in pieces, that
// are too long for them, clients that send while an answer is pending, and
// many answers at once that must each reach their own client.

// loopsOn reports whether this run relays answers on loops.
func loopsOn() bool { return testInbound == InboundH1 && testAnswerLoops }

// rawService serves every request on its connections with answer, which
// writes to the connection as it likes.
func rawService(t *testing.T, answer func(w *bufio.Writer, r *http.Request)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				br, bw := bufio.NewReader(c), bufio.NewWriter(c)
				for {
					r, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					_, _ = io.Copy(io.Discard, r.Body)
					answer(bw, r)
					if bw.Flush() != nil {
						return
					}
				}
			}()
		}
	}()
	return "http://" + ln.Addr().String()
}

// sendNow flushes what is written so far, then waits d.
func sendNow(w *bufio.Writer, d time.Duration) {
	_ = w.Flush()
	time.Sleep(d)
}

func TestAnswerLoopAnswerInPieces(t *testing.T) {
	t.Parallel()
	body := `{"result":{"status":"success","message":"ok","data":{"service":"identity"}}}`
	url := rawService(t, func(w *bufio.Writer, r *http.Request) {
		fmt.Fprintf(w, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n")
		sendNow(w, 5*time.Millisecond)
		fmt.Fprintf(w, "Content-Length: %d\r\n\r\n%s", len(body), body[:10])
		sendNow(w, 5*time.Millisecond)
		_, _ = w.WriteString(body[10:])
	})
	e := newEnv(t, func(c *Config) { c.IdentityURL = url })
	for range 5 {
		resp, raw := e.post("/v2/users/get", `{"data":{}}`, creds...)
		if resp.StatusCode != http.StatusOK || string(raw) != body {
			t.Fatalf("got %d %q, want %q", resp.StatusCode, raw, body)
		}
	}
	if n := e.gw.loops.relayed(); loopsOn() && n != 5 {
		t.Fatalf("the loops relayed %d of 5 answers", n)
	}
}

// An answer longer than a loop relays goes to a goroutine of its own,
// whole.
func TestAnswerLoopLongAnswer(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("x", 100_000)
	url := rawService(t, func(w *bufio.Writer, r *http.Request) {
		fmt.Fprintf(w, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	})
	e := newEnv(t, func(c *Config) { c.IdentityURL = url })
	for range 3 {
		resp, raw := e.post("/v2/users/get", `{"data":{}}`, creds...)
		if resp.StatusCode != http.StatusOK || string(raw) != body {
			t.Fatalf("got %d with %d bytes, want %d", resp.StatusCode, len(raw), len(body))
		}
	}
	if n := e.gw.loops.relayed(); n != 0 {
		t.Fatalf("the loops relayed %d answers longer than their buffer", n)
	}
}

// A service that closes after half an answer head: the client gets
// UNAVAILABLE, and the next request a new connection.
func TestAnswerLoopServiceGoneMidHead(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	calls := 0
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				br := bufio.NewReader(c)
				for {
					r, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					_, _ = io.Copy(io.Discard, r.Body)
					mu.Lock()
					calls++
					first := calls == 1
					mu.Unlock()
					if first {
						_, _ = io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-")
						return
					}
					b := `{"result":{"status":"success","message":"ok","data":{"service":"identity"}}}`
					fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len(b), b)
				}
			}()
		}
	}()
	e := newEnv(t, func(c *Config) { c.IdentityURL = "http://" + ln.Addr().String() })
	resp, raw := e.post("/v2/users/get", `{"data":{}}`, creds...)
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("a broken answer head got %d %s, want 503", resp.StatusCode, raw)
	}
	resp, raw = e.post("/v2/users/get", `{"data":{}}`, creds...)
	wantService(t, resp, raw, svcIdentity)
}

// A client that sends its next request while the answer to the previous
// one is pending gets both answers, in order, without waiting for a
// deadline.
func TestAnswerLoopClientSendsWhilePending(t *testing.T) {
	t.Parallel()
	url := rawService(t, func(w *bufio.Writer, r *http.Request) {
		time.Sleep(30 * time.Millisecond)
		b := r.Header.Get("X-Which")
		fmt.Fprintf(w, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len(b), b)
	})
	e := newEnv(t, func(c *Config) { c.IdentityURL = url })
	c, err := net.Dial("tcp", strings.TrimPrefix(e.srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	br := bufio.NewReader(c)
	request := func(which string) string {
		return "POST /v2/users/get HTTP/1.1\r\nHost: gw\r\nX-Svc-Api-Key: " + testKey + "\r\nX-Svc-Auth-Token: " + testToken +
			"\r\nX-Which: " + which + "\r\nContent-Length: 11\r\n\r\n{\"data\":{}}"
	}
	for i := range 3 {
		first, second := fmt.Sprint("a", i), fmt.Sprint("b", i)
		_, _ = io.WriteString(c, request(first))
		time.Sleep(10 * time.Millisecond)
		_, _ = io.WriteString(c, request(second))
		start := time.Now()
		for _, want := range []string{first, second} {
			resp, err := http.ReadResponse(br, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(resp.Body)
			if string(got) != want {
				t.Fatalf("answer %q, want %q", got, want)
			}
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("two answers took %v", d)
		}
	}
}

// Many clients at once: every answer reaches the client that asked.
func TestAnswerLoopAnswersReachTheirClients(t *testing.T) {
	t.Parallel()
	url := rawService(t, func(w *bufio.Writer, r *http.Request) {
		b := r.Header.Get("X-Which")
		fmt.Fprintf(w, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len(b), b)
	})
	e := newEnv(t, func(c *Config) {
		c.IdentityURL = url
		c.RateLimitPerSecond = 0
	})
	const clients, each = 16, 100
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for i := range clients {
		wg.Go(func() {
			for j := range each {
				which := fmt.Sprintf("c%d-r%d", i, j)
				req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/v2/users/get", strings.NewReader(`{"data":{}}`))
				req.Header.Set("x-svc-api-key", testKey)
				req.Header.Set("x-svc-auth-token", testToken)
				req.Header.Set("X-Which", which)
				resp, err := e.srv.Client().Do(req)
				if err != nil {
					errs <- err
					return
				}
				got, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if string(got) != which {
					errs <- fmt.Errorf("client %d got %q, want %q", i, got, which)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := e.gw.loops.relayed(); loopsOn() && n < clients*each/2 {
		t.Fatalf("the loops relayed %d of %d answers", n, clients*each)
	}
}
