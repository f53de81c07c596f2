package gateway

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/textproto"
	"strconv"
	"strings"
)

// The HTTP/1.1 framing of the upstream hop, written by hand so a request
// costs one write (head and small body together) and one read, and the
// answer's head goes straight into the client's response headers.

// skipRequestHeader reports whether a client header stays at the gateway:
// hop-by-hop headers (RFC 9110 §7.6.1), the framing the gateway writes
// itself, X-Forwarded-* and Forwarded (the gateway is the services' only
// client, as httputil.ReverseProxy's Rewrite had it), and Expect (the body
// follows the head at once).
func skipRequestHeader(k string) bool {
	switch k {
	case "Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authorization",
		"Te", "Trailer", "Transfer-Encoding", "Upgrade", "Host", "Content-Length", "Expect",
		"Forwarded", "X-Forwarded-For", "X-Forwarded-Host", "X-Forwarded-Proto":
		return true
	}
	return false
}

// skipResponseHeader: hop-by-hop headers of the service's answer.
func skipResponseHeader(k string) bool {
	switch k {
	case "Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authorization",
		"Te", "Trailer", "Transfer-Encoding", "Upgrade":
		return true
	}
	return false
}

// connectionListed reports whether the Connection header names k, which
// makes k hop-by-hop too.
func connectionListed(connection []string, k string) bool {
	for _, v := range connection {
		for v != "" {
			var tok string
			tok, v, _ = strings.Cut(v, ",")
			if strings.EqualFold(strings.TrimSpace(tok), k) {
				return true
			}
		}
	}
	return false
}

// traceHeaders collects what the propagator injects (traceparent,
// tracestate, baggage) without a map.
type traceHeaders struct {
	n  int
	kv [4][2]string
}

func (t *traceHeaders) Get(string) string { return "" }
func (t *traceHeaders) Keys() []string    { return nil }
func (t *traceHeaders) Set(k, v string) {
	if t.n < len(t.kv) {
		t.kv[t.n] = [2]string{k, v}
		t.n++
	}
}

// has reports whether the propagator set k; the client's own value of it
// is then replaced.
func (t *traceHeaders) has(k string) bool {
	for i := range t.n {
		if strings.EqualFold(t.kv[i][0], k) {
			return true
		}
	}
	return false
}

// outRequest is what goes into a request head besides the client's headers.
type outRequest struct {
	host  string
	trace *traceHeaders
	// upgrade forwards a WebSocket handshake: Connection and Upgrade are
	// written, not dropped.
	upgrade bool
}

// appendRequestHead writes the request line and headers of r for the
// service. contentLength -1 announces a chunked body.
func appendRequestHead(b []byte, r *http.Request, o outRequest, contentLength int64) []byte {
	b = append(b, r.Method...)
	b = append(b, ' ')
	if strings.HasPrefix(r.RequestURI, "/") {
		b = append(b, r.RequestURI...)
	} else {
		b = append(b, r.URL.RequestURI()...)
	}
	b = append(b, " HTTP/1.1\r\nHost: "...)
	b = append(b, o.host...)
	b = append(b, "\r\n"...)
	connection := r.Header["Connection"]
	for k, vv := range r.Header {
		if skipRequestHeader(k) || o.trace.has(k) || (len(connection) > 0 && connectionListed(connection, k)) {
			continue
		}
		for _, v := range vv {
			b = appendHeader(b, k, v)
		}
	}
	for i := range o.trace.n {
		b = appendHeader(b, o.trace.kv[i][0], o.trace.kv[i][1])
	}
	switch {
	case o.upgrade:
		b = append(b, "Connection: Upgrade\r\nUpgrade: websocket\r\n"...)
	case contentLength < 0:
		b = append(b, "Transfer-Encoding: chunked\r\n"...)
	case contentLength > 0 || r.Method != http.MethodGet && r.Method != http.MethodHead:
		b = append(b, "Content-Length: "...)
		b = strconv.AppendInt(b, contentLength, 10)
		b = append(b, "\r\n"...)
	}
	return append(b, "\r\n"...)
}

// appendHeader writes one field; a CR or LF in a value becomes a space, as
// http.Header.Write does, so nothing can end the head early.
func appendHeader(b []byte, k, v string) []byte {
	b = append(b, k...)
	b = append(b, ": "...)
	start := len(b)
	b = append(b, v...)
	for i := start; i < len(b); i++ {
		if b[i] == '\r' || b[i] == '\n' {
			b[i] = ' '
		}
	}
	return append(b, "\r\n"...)
}

// respHead is the framing of a service's answer.
type respHead struct {
	status        int
	contentLength int64 // -1: unknown
	chunked       bool
	keepAlive     bool
}

var (
	// errNoResponse: the connection ended before any byte of an answer.
	errNoResponse = errors.New("connection closed before an answer")
	errBadAnswer  = errors.New("malformed HTTP answer from the service")
)

// readResponseHead reads the status line and headers into h (the client's
// response headers, minus hop-by-hop ones). Interim 1xx answers other than
// 101 are skipped.
func readResponseHead(br *bufio.Reader, h http.Header) (respHead, error) {
	for first := true; ; first = false {
		line, err := br.ReadSlice('\n')
		if err != nil {
			if first && len(line) == 0 {
				return respHead{}, errors.Join(errNoResponse, err)
			}
			return respHead{}, err
		}
		rh, err := parseStatusLine(line)
		if err != nil {
			return rh, err
		}
		if err := readHeaderFields(br, h, &rh); err != nil {
			return rh, err
		}
		if rh.status >= 200 || rh.status == http.StatusSwitchingProtocols {
			return rh, nil
		}
		clear(h)
	}
}

func parseStatusLine(line []byte) (respHead, error) {
	// "HTTP/1.1 200 OK\r\n"
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) || line[8] != ' ' {
		return respHead{}, errBadAnswer
	}
	status := 0
	for _, c := range line[9:12] {
		if c < '0' || c > '9' {
			return respHead{}, errBadAnswer
		}
		status = status*10 + int(c-'0')
	}
	return respHead{status: status, contentLength: -1, keepAlive: line[7] == '1'}, nil
}

// maxAnswerFields bounds the header fields of one answer (a line is
// bounded by the connection's 16 KiB read buffer).
const maxAnswerFields = 256

func readHeaderFields(br *bufio.Reader, h http.Header, rh *respHead) error {
	var connection []string
	for fields := 0; ; fields++ {
		if fields > maxAnswerFields {
			return errBadAnswer
		}
		line, err := br.ReadSlice('\n')
		if err != nil {
			return err
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			break
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok || len(name) == 0 || line[0] == ' ' || line[0] == '\t' {
			return errBadAnswer
		}
		key := canonicalKey(name)
		value = bytes.TrimSpace(value)
		switch key {
		case "Content-Length":
			n, err := strconv.ParseInt(string(value), 10, 64)
			if err != nil || n < 0 || (rh.contentLength >= 0 && n != rh.contentLength) {
				return errBadAnswer
			}
			rh.contentLength = n
		case "Transfer-Encoding":
			if !bytes.EqualFold(value, []byte("chunked")) {
				return errBadAnswer // no other coding is sent by our services
			}
			rh.chunked = true
		case "Connection":
			connection = append(connection, string(value))
			if bytes.EqualFold(value, []byte("close")) {
				rh.keepAlive = false
			} else if bytes.EqualFold(value, []byte("keep-alive")) {
				rh.keepAlive = true
			}
		}
		if !skipResponseHeader(key) {
			h[key] = append(h[key], internValue(key, value))
		}
	}
	if rh.chunked {
		rh.contentLength = -1
		delete(h, "Content-Length")
	}
	for _, c := range connection {
		for k := range h {
			if connectionListed([]string{c}, k) {
				delete(h, k)
			}
		}
	}
	return nil
}

// commonKeys interns the header names our services send, so parsing them
// allocates nothing.
var commonKeys = func() map[string]string {
	m := map[string]string{}
	for _, k := range []string{"Content-Type", "Content-Length", "Date", "X-Request-Id", "Connection",
		"Transfer-Encoding", "Cache-Control", "Vary", "Content-Encoding", "Retry-After", "Location",
		"Upgrade", "Sec-Websocket-Accept", "Sec-Websocket-Protocol", "Sec-Websocket-Extensions", "Keep-Alive"} {
		m[k] = k
		m[strings.ToLower(k)] = k
	}
	return m
}()

func canonicalKey(name []byte) string {
	if k, ok := commonKeys[string(name)]; ok {
		return k
	}
	return textproto.CanonicalMIMEHeaderKey(string(name))
}

// internValue avoids an allocation for the one value every answer repeats.
func internValue(key string, v []byte) string {
	const jsonType = "application/json; charset=utf-8"
	if key == "Content-Type" && string(v) == jsonType {
		return jsonType
	}
	return string(v)
}

// writerOnly hides a connection's ReadFrom, so io.CopyBuffer uses the
// pooled buffer instead of allocating its own.
type writerOnly struct{ io.Writer }
