package h1

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// Requests served inside the wait for input (inline.go): none may be
// lost or delayed to a deadline, whenever its bytes arrive.

const pingRequest = "GET /ping HTTP/1.1\r\nHost: h\r\n\r\n"

// serveInlineTest serves h on loopback and returns the address.
func serveInlineTest(t *testing.T, h http.HandlerFunc) (*Server, string) {
	t.Helper()
	s := &Server{Handler: h, IdleTimeout: time.Minute}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = s.Serve(ln) }()
	t.Cleanup(func() { _ = s.Close() })
	return s, ln.Addr().String()
}

func dialInline(t *testing.T, addr string) (net.Conn, *bufio.Reader) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	// A lost wakeup shows as a deadline error, not a hung test.
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	return c, bufio.NewReader(c)
}

// readAnswer reads one answer and returns its body.
func readAnswer(t *testing.T, br *bufio.Reader) string {
	t.Helper()
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("reading an answer: %v", err)
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// send writes s to c.
func send(t *testing.T, c net.Conn, s string) {
	t.Helper()
	if _, err := io.WriteString(c, s); err != nil {
		t.Fatal(err)
	}
}

// expectAnswers reads answers with the bodies wants, in order.
func expectAnswers(t *testing.T, br *bufio.Reader, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if got := readAnswer(t, br); got != want {
			t.Fatalf("answer %q, want %q", got, want)
		}
	}
}

func echoPath(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, r.URL.Path) }

// echoRequest answers the path and the body.
func echoRequest(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	_, _ = io.WriteString(w, r.URL.Path+string(b))
}

// A client that sends its next request as soon as it has the answer, on
// several connections at once: every request is answered.
func TestInlinePingPong(t *testing.T) {
	t.Parallel()
	_, addr := serveInlineTest(t, echoPath)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		c, br := dialInline(t, addr)
		wg.Go(func() {
			for i := range 400 {
				path := fmt.Sprintf("/r%d", i)
				if _, err := fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: h\r\n\r\n", path); err != nil {
					errs <- err
					return
				}
				resp, err := http.ReadResponse(br, nil)
				if err != nil {
					errs <- fmt.Errorf("request %d: %w", i, err)
					return
				}
				b, _ := io.ReadAll(resp.Body)
				if string(b) != path {
					errs <- fmt.Errorf("request %d answered %q", i, b)
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
}

// A pipelined request that arrives while the previous one is served (after
// the read that brought it, before its answer) is answered without waiting
// for more input: the case a wait armed after the answer would lose.
func TestInlinePipelinedDuringHandler(t *testing.T) {
	t.Parallel()
	started, release := make(chan struct{}), make(chan struct{})
	_, addr := serveInlineTest(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/first" {
			close(started)
			<-release
		}
		echoPath(w, r)
	})
	c, br := dialInline(t, addr)
	send(t, c, "GET /first HTTP/1.1\r\nHost: h\r\n\r\n")
	<-started
	send(t, c, "GET /second HTTP/1.1\r\nHost: h\r\n\r\n")
	// Let the poller take the second request's readiness while the first
	// is served (it polls at least every 10 ms).
	time.Sleep(30 * time.Millisecond)
	close(release)
	expectAnswers(t, br, "/first", "/second")
}

// Requests pipelined in one write, one with a body among them, are
// answered in order.
func TestInlinePipelinedBatch(t *testing.T) {
	t.Parallel()
	_, addr := serveInlineTest(t, echoRequest)
	c, br := dialInline(t, addr)
	batch := "GET /a HTTP/1.1\r\nHost: h\r\n\r\n" +
		"POST /b HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\n\r\nbody" +
		"GET /c HTTP/1.1\r\nHost: h\r\n\r\n"
	send(t, c, batch)
	expectAnswers(t, br, "/a", "/bbody", "/c")
}

// Shutdown closes a connection that waits for its next request.
func TestInlineShutdownIdle(t *testing.T) {
	t.Parallel()
	s, addr := serveInlineTest(t, echoPath)
	c, br := dialInline(t, addr)
	send(t, c, pingRequest)
	readAnswer(t, br)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	if _, err := br.ReadByte(); err != io.EOF {
		t.Fatalf("read %v after Shutdown, want EOF", err)
	}
}

// Close under a running handler closes the connection for the client at
// once and returns, though the handler (served inside the wait) goes on.
func TestInlineCloseUnderHandler(t *testing.T) {
	t.Parallel()
	started, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	s, addr := serveInlineTest(t, func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-release
	})
	c, br := dialInline(t, addr)
	send(t, c, pingRequest)
	<-started
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatalf("Close: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close waits for the handler")
	}
	if _, err := br.ReadByte(); err != io.EOF {
		t.Fatalf("read %v after Close, want EOF", err)
	}
}

// An upgrade request is served outside the wait and may hijack; any other
// request gets an error from Hijack instead of a connection nothing can read.
func TestInlineHijack(t *testing.T) {
	t.Parallel()
	_, addr := serveInlineTest(t, func(w http.ResponseWriter, r *http.Request) {
		nc, brw, err := http.NewResponseController(w).Hijack()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		defer nc.Close()
		line, _ := brw.ReadString('\n')
		_, _ = io.WriteString(nc, "HTTP/1.1 101 Switching Protocols\r\n\r\necho "+line)
	})
	c, br := dialInline(t, addr)
	send(t, c, pingRequest)
	if got := readAnswer(t, br); !strings.Contains(got, errHijackInline.Error()) {
		t.Fatalf("answer %q, want the Hijack error", got)
	}
	up := "GET /ws HTTP/1.1\r\nHost: h\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\nhello\n"
	send(t, c, up)
	rest, err := io.ReadAll(br)
	if err != nil || !strings.HasSuffix(string(rest), "\r\n\r\necho hello\n") {
		t.Fatalf("after the upgrade read %q, %v", rest, err)
	}
}

// A head or a body that arrives in pieces is finished outside the wait,
// and the connection goes on serving inside it.
func TestInlineSlowInput(t *testing.T) {
	t.Parallel()
	_, addr := serveInlineTest(t, echoRequest)
	for _, tc := range []struct {
		parts []string
		want  string
	}{
		{[]string{"GET /sl", "ow HTTP/1.1\r\nHo", "st: h\r\n", "\r\n"}, "/slow"},
		{[]string{"POST /b HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nfirst", "-half"}, "/bfirst-half"},
	} {
		c, br := dialInline(t, addr)
		for _, part := range tc.parts {
			send(t, c, part)
			time.Sleep(15 * time.Millisecond)
		}
		expectAnswers(t, br, tc.want)
		send(t, c, pingRequest)
		expectAnswers(t, br, "/ping")
	}
}
