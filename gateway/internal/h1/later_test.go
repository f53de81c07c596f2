package h1

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Answers completed later (later.go): none may be lost, reordered or left
// waiting for a deadline, whatever the client does while one is pending.

// laterWriter is the part of the response a completer uses.
type laterWriter interface {
	http.ResponseWriter
	AnswerLater() bool
	Finish(AfterAnswer)
}

type afterFunc func()

func (f afterFunc) AfterAnswer() { f() }

// laterHandler answers the path after delay from another goroutine when
// the connection allows it (counted in later), else at once.
func laterHandler(delay time.Duration, later *atomic.Int64) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		lw := w.(laterWriter)
		path := r.URL.Path
		if !lw.AnswerLater() {
			_, _ = io.WriteString(w, "now "+path)
			return
		}
		later.Add(1)
		go func() {
			time.Sleep(delay)
			_, _ = io.WriteString(lw, "later "+path)
			lw.Finish(afterFunc(func() {}))
		}()
	}
}

func TestLaterKeepAlive(t *testing.T) {
	t.Parallel()
	var later atomic.Int64
	_, addr := serveInlineTest(t, laterHandler(0, &later))
	c, br := dialInline(t, addr)
	for i := range 200 {
		send(t, c, pingRequest)
		expectAnswers(t, br, "later /ping")
		if i == 0 && later.Load() != 1 {
			t.Fatalf("first request answered later %d times, want 1", later.Load())
		}
	}
	if n := later.Load(); n != 200 {
		t.Fatalf("%d of 200 requests answered later", n)
	}
}

// A request that arrives while the previous answer is pending is served
// after it, not left to the idle deadline (the wait is woken).
func TestLaterInputWhilePending(t *testing.T) {
	t.Parallel()
	for _, idle := range []time.Duration{time.Minute, 0} {
		t.Run(idle.String(), func(t *testing.T) {
			t.Parallel()
			inputWhilePending(t, idle)
		})
	}
}

func inputWhilePending(t *testing.T, idle time.Duration) {
	var later atomic.Int64
	s := &Server{Handler: laterHandler(50*time.Millisecond, &later), IdleTimeout: idle}
	c, br := dialInline(t, serveLaterTest(t, s))
	for range 3 {
		send(t, c, "GET /a HTTP/1.1\r\nHost: h\r\n\r\n")
		time.Sleep(10 * time.Millisecond) // /a is pending now
		send(t, c, "GET /b HTTP/1.1\r\nHost: h\r\n\r\n")
		start := time.Now()
		expectAnswers(t, br, "later /a")
		expectAnswers(t, br, "later /b")
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("second answer took %v: the wait was not woken", d)
		}
	}
	if later.Load() != 6 {
		t.Fatalf("%d of 6 answered later", later.Load())
	}
}

// Pipelined requests are buffered when the first is served: it is
// answered at once, in order.
func TestLaterRefusedWithPipelinedInput(t *testing.T) {
	t.Parallel()
	var later atomic.Int64
	_, addr := serveInlineTest(t, laterHandler(0, &later))
	c, br := dialInline(t, addr)
	send(t, c, "GET /1 HTTP/1.1\r\nHost: h\r\n\r\nGET /2 HTTP/1.1\r\nHost: h\r\n\r\n")
	expectAnswers(t, br, "now /1", "later /2")
}

func TestLaterConnectionClose(t *testing.T) {
	t.Parallel()
	var later atomic.Int64
	_, addr := serveInlineTest(t, laterHandler(10*time.Millisecond, &later))
	c, br := dialInline(t, addr)
	send(t, c, "GET /x HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
	expectAnswers(t, br, "later /x")
	if _, err := br.ReadByte(); err != io.EOF {
		t.Fatalf("after Connection: close got %v, want EOF", err)
	}
}

// Shutdown waits for a pending answer, then closes the connection.
func TestLaterShutdownWaits(t *testing.T) {
	t.Parallel()
	var later atomic.Int64
	s, addr := serveInlineTest(t, laterHandler(100*time.Millisecond, &later))
	c, br := dialInline(t, addr)
	send(t, c, pingRequest)
	time.Sleep(20 * time.Millisecond)
	done := make(chan error, 1)
	go func() { done <- s.Shutdown(context.Background()) }()
	expectAnswers(t, br, "later /ping")
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := br.ReadByte(); err != io.EOF {
		t.Fatalf("after shutdown got %v, want EOF", err)
	}
}

// The client hangs up while its answer is pending: the completer's write
// fails or lands, and the connection ends without a panic or a leak.
func TestLaterClientGone(t *testing.T) {
	t.Parallel()
	var later atomic.Int64
	finished := make(chan struct{})
	_, addr := serveInlineTest(t, func(w http.ResponseWriter, r *http.Request) {
		lw := w.(laterWriter)
		if !lw.AnswerLater() {
			t.Error("AnswerLater refused")
			return
		}
		later.Add(1)
		go func() {
			time.Sleep(50 * time.Millisecond)
			_, _ = io.WriteString(lw, "late")
			lw.Finish(afterFunc(func() { close(finished) }))
		}()
	})
	c, _ := dialInline(t, addr)
	send(t, c, pingRequest)
	time.Sleep(10 * time.Millisecond)
	_ = c.Close()
	select {
	case <-finished:
	case <-time.After(5 * time.Second):
		t.Fatal("the completer never finished")
	}
}

// After an answer completed later the idle timeout still ends the
// connection, on time: neither at once nor never.
func TestLaterIdleTimeout(t *testing.T) {
	t.Parallel()
	var later atomic.Int64
	s := &Server{Handler: laterHandler(0, &later), IdleTimeout: 300 * time.Millisecond}
	c, br := dialInline(t, serveLaterTest(t, s))
	for range 3 {
		send(t, c, pingRequest)
		expectAnswers(t, br, "later /ping")
	}
	if d := closedAfter(t, c, br); d < 200*time.Millisecond || d > 2*time.Second {
		t.Fatalf("closed %v after the last answer, want about 300ms", d)
	}
	if later.Load() != 3 {
		t.Fatalf("%d of 3 answered later", later.Load())
	}
}

// serveLaterTest serves s on loopback and returns the address.
func serveLaterTest(t *testing.T, s *Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = s.Serve(ln) }()
	t.Cleanup(func() { _ = s.Close() })
	return ln.Addr().String()
}

// A request that filled the read buffer exactly may have more input behind
// it in the socket, which no input event would announce: it is answered at
// once, and the request behind it is not left waiting.
func TestLaterRefusedAfterFullRead(t *testing.T) {
	t.Parallel()
	var later atomic.Int64
	_, addr := serveInlineTest(t, laterHandler(0, &later))
	c, br := dialInline(t, addr)
	first := "GET /1 HTTP/1.1\r\nHost: h\r\nX-Pad: "
	first += strings.Repeat("p", readBufferSize-len(first)-4) + "\r\n\r\n"
	send(t, c, first+"GET /2 HTTP/1.1\r\nHost: h\r\n\r\n")
	expectAnswers(t, br, "now /1", "later /2")
}
