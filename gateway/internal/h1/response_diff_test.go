package h1

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

// diffHandler answers by path, covering the response writer's branches.
func diffHandler(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/sniff":
		_, _ = io.WriteString(w, "<html><body>hi</body></html>")
	case "/json":
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Request-Id", "r1")
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, `{"ok":true}`)
	case "/sized":
		w.Header().Set("Content-Length", "5000")
		_, _ = w.Write([]byte(strings.Repeat("a", 5000)))
	case "/large":
		_, _ = w.Write([]byte(strings.Repeat("b", 3000)))
		_, _ = w.Write([]byte(strings.Repeat("c", 100)))
	case "/flush":
		w.Header().Set("Content-Type", "text/plain")
		_, _ = io.WriteString(w, "one")
		http.NewResponseController(w).Flush()
		_, _ = io.WriteString(w, "two")
	case "/empty":
	case "/nocontent":
		w.WriteHeader(http.StatusNoContent)
	case "/notmodified":
		w.WriteHeader(http.StatusNotModified)
	case "/close":
		w.Header().Set("Connection", "close")
		_, _ = io.WriteString(w, "bye")
	case "/echo":
		b, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		_, _ = io.WriteString(w, r.Method+" "+r.Host+" "+r.URL.RawQuery+" "+string(b))
	case "/unread":
		_, _ = io.WriteString(w, "did not read")
	case "/short":
		w.Header().Set("Content-Length", "10")
		_, _ = io.WriteString(w, "abc")
	case "/nilct":
		w.Header()["Content-Type"] = nil
		_, _ = io.WriteString(w, "<html>")
	default:
		http.Error(w, "nothing here", http.StatusNotFound)
	}
}

// TestResponsesMatchNetHTTP sends the same bytes to net/http and to h1 and
// compares every answer (status, proto, header fields but Date, body, and
// whether the connection stays open), including pipelined requests.
func TestResponsesMatchNetHTTP(t *testing.T) {
	const post = "POST /echo?x=1 HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello"
	cases := map[string]string{
		"sniff":         "GET /sniff HTTP/1.1\r\nHost: h\r\n\r\n",
		"json":          "GET /json HTTP/1.1\r\nHost: h\r\n\r\n",
		"sized":         "GET /sized HTTP/1.1\r\nHost: h\r\n\r\n",
		"large chunked": "GET /large HTTP/1.1\r\nHost: h\r\n\r\n",
		"large 1.0":     "GET /large HTTP/1.0\r\n\r\n",
		"flush":         "GET /flush HTTP/1.1\r\nHost: h\r\n\r\n",
		"empty":         "GET /empty HTTP/1.1\r\nHost: h\r\n\r\n",
		"204":           "GET /nocontent HTTP/1.1\r\nHost: h\r\n\r\n",
		"304":           "GET /notmodified HTTP/1.1\r\nHost: h\r\n\r\n",
		"head":          "HEAD /json HTTP/1.1\r\nHost: h\r\n\r\n",
		"head empty":    "HEAD /empty HTTP/1.1\r\nHost: h\r\n\r\n",
		"handler close": "GET /close HTTP/1.1\r\nHost: h\r\n\r\n" + "GET /json HTTP/1.1\r\nHost: h\r\n\r\n",
		"client close":  "GET /json HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n",
		"1.0 keepalive": "GET /json HTTP/1.0\r\nConnection: keep-alive\r\n\r\n" + "GET /sniff HTTP/1.0\r\n\r\n",
		"pipelined":     post + post + "GET /json HTTP/1.1\r\nHost: h\r\n\r\n",
		"chunked body":  "POST /echo HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n2\r\nde\r\n0\r\nT: v\r\n\r\n" + post,
		"bad chunked":   "POST /echo HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n",
		"unread body":   "POST /unread HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello" + post,
		"expect":        "POST /echo HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\nhello",
		"expect unread": "POST /unread HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n",
		"expect other":  "POST /echo HTTP/1.1\r\nHost: h\r\nExpect: magic\r\nContent-Length: 5\r\n\r\nhello",
		"short body":    "GET /short HTTP/1.1\r\nHost: h\r\n\r\n" + "GET /json HTTP/1.1\r\nHost: h\r\n\r\n",
		"nil type":      "GET /nilct HTTP/1.1\r\nHost: h\r\n\r\n",
		"escaped path":  "GET /%6Aso%6E?a=%zz HTTP/1.1\r\nHost: h\r\n\r\n",
		"no host":       "GET /json HTTP/1.1\r\n\r\n",
		"two hosts":     "GET /json HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
		"bad host":      "GET /json HTTP/1.1\r\nHost: a b\r\n\r\n",
		"bad line":      "GET /json\r\nHost: h\r\n\r\n",
		"bad header":    "GET /json HTTP/1.1\r\nHost: h\r\nBad Name: v\r\n\r\n",
		"two lengths":   "POST /echo HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
		"http2 version": "GET /json HTTP/2.0\r\nHost: h\r\n\r\n",
		"huge header":   "GET /json HTTP/1.1\r\nHost: h\r\nX-Big: " + strings.Repeat("x", 70<<10) + "\r\n\r\n",
		"gzip coding":   "POST /echo HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\n\r\n",
		"te and length": "POST /echo HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n0\r\n\r\n",
		"1.0 chunked":   "POST /echo HTTP/1.0\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\nab",
		"not found":     "GET /nope HTTP/1.1\r\nHost: h\r\n\r\n",
	}
	std := startDiffServer(t, "net/http")
	lean := startDiffServer(t, "h1")
	listing := startDiffServer(t, "h1 listing fields")
	for name, raw := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			want := exchangeRaw(t, std, raw)
			if got := exchangeRaw(t, lean, raw); !reflect.DeepEqual(got, want) {
				t.Fatalf("h1 answered\n%q\nnet/http answered\n%q", got, want)
			}
			if got := exchangeRaw(t, listing, raw); !reflect.DeepEqual(got, want) {
				t.Fatalf("h1 with ListFields answered\n%q\nnet/http answered\n%q", got, want)
			}
		})
	}
}

func startDiffServer(t *testing.T, kind string) *watchedListener {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := watch(l)
	h := http.HandlerFunc(diffHandler)
	limits := &Server{Handler: h, MaxHeaderBytes: 64 << 10, IdleTimeout: time.Minute, ListFields: kind == "h1 listing fields"}
	if kind != "net/http" {
		go func() { _ = limits.Serve(ln) }()
		t.Cleanup(func() { _ = limits.Close() })
		return ln
	}
	s := &http.Server{Handler: h, MaxHeaderBytes: limits.MaxHeaderBytes, IdleTimeout: limits.IdleTimeout}
	go func() { _ = s.Serve(ln) }()
	t.Cleanup(func() { _ = s.Close() })
	return ln
}

// exchangeBound bounds an exchange that neither ends nor waits: a hung
// test, not a timing assertion.
const exchangeBound = 10 * time.Second

// exchangeRaw writes raw and reads answers until the server closes or
// waits for bytes the client will not send (then the last answer is
// "open"), describing each answer without its Date.
func exchangeRaw(t *testing.T, srv *watchedListener, raw string) []string {
	c, err := net.Dial("tcp", srv.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	go func() { _, _ = io.WriteString(c, raw) }()
	cr := &countingReader{r: c}
	br := bufio.NewReader(cr)
	_ = c.SetReadDeadline(time.Now().Add(exchangeBound))
	waiting := make(chan struct{})
	stop := make(chan struct{})
	defer close(stop)
	go endWhenWaiting(c, srv, int64(len(raw)), cr, waiting, stop)
	method, _, _ := strings.Cut(raw, " ")
	var answers []string
	for {
		resp, err := http.ReadResponse(br, &http.Request{Method: method})
		if err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				select {
				case <-waiting:
					return append(answers, "open")
				default:
					t.Fatalf("no answer, close or wait for bytes within %v; answers so far %q", exchangeBound, answers)
				}
			}
			return append(answers, "closed")
		}
		body, err := io.ReadAll(resp.Body)
		resp.Header.Del("Date")
		answers = append(answers, resp.Proto+" "+resp.Status+" "+headerString(resp)+" body="+string(body)+errString(err))
	}
}

// endWhenWaiting ends the client's reads (a deadline now) once the server
// waits for bytes having read all of raw, and the client has read all it
// wrote: no answer can come any more.
func endWhenWaiting(c net.Conn, srv *watchedListener, sent int64, cr *countingReader, waiting, stop chan struct{}) {
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		sc := srv.conn(c.LocalAddr().String())
		if sc != nil && sc.waits(sent) && cr.n.Load() == sc.written.Load() {
			close(waiting)
			_ = c.SetReadDeadline(time.Now())
			return
		}
	}
}

func headerString(resp *http.Response) string {
	var b strings.Builder
	_ = resp.Header.Write(&b)
	b.WriteString(" cl=")
	b.WriteString(http.StatusText(0))
	if resp.ContentLength >= 0 {
		b.WriteString("sized")
	}
	if len(resp.TransferEncoding) > 0 {
		b.WriteString(" te=" + strings.Join(resp.TransferEncoding, ","))
	}
	return b.String()
}

func errString(err error) string {
	if err != nil {
		return " err=" + err.Error()
	}
	return ""
}
