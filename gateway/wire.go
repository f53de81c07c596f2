package gateway

import (
	"bufio"
	"errors"
	"io"
	"net/http"
	"net/textproto"
	"strconv"
	"strings"

	"github.com/opencollab/backend/gateway/internal/httpfield"
	"github.com/opencollab/backend/pkg/internalauth"
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

// internalHeader reports whether a client header is one it must not send
// on or forge: its credentials (services never see tokens) and any X-Svc-*
// header, a forged principal or signature included. The gateway writes
// the principal it signed instead.
func internalHeader(k string) bool {
	return strings.HasPrefix(k, "X-Svc-") || strings.HasPrefix(k, "X-Velt-")
}

// outRequest is what goes into a request head besides the client's headers.
type outRequest struct {
	host string
	// principal's signed headers are sent; the client's internal ones not.
	principal *signedPrincipal
	trace     *traceHeaders
	// upgrade forwards a WebSocket handshake: Connection and Upgrade are
	// written, not dropped.
	upgrade bool
	// fields, when listed, are r.Header's fields as the inbound server
	// parsed them, in order (h1.RequestFields): written from there instead
	// of by iterating the map, with requestID (the id the gateway kept or
	// made) in place of the client's X-Request-Id.
	fields    []httpfield.Field
	listed    bool
	requestID string
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
	if o.listed {
		b = appendListedFields(b, o)
	} else {
		b = appendHeaderFields(b, r.Header, o)
	}
	b = o.trace.append(b)
	if p := o.principal; p != nil {
		b = httpfield.Append(b, internalauth.HeaderPrincipal, p.principal[0])
		b = httpfield.Append(b, internalauth.HeaderTimestamp, p.timestamp[0])
		b = httpfield.Append(b, internalauth.HeaderSignature, p.signature[0])
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

// forwarded reports whether the client's field k goes to the service.
func forwarded(k string, connection []string, o outRequest) bool {
	return !skipRequestHeader(k) && !internalHeader(k) && !o.trace.has(k) &&
		(len(connection) == 0 || !httpfield.HasToken(connection, k))
}

// appendHeaderFields writes the client's fields from the header map.
func appendHeaderFields(b []byte, h http.Header, o outRequest) []byte {
	connection := h["Connection"]
	for k, vv := range h {
		if !forwarded(k, connection, o) {
			continue
		}
		for _, v := range vv {
			b = httpfield.Append(b, k, v)
		}
	}
	return b
}

// appendListedFields writes the same fields as appendHeaderFields from
// o.fields: the map's fields in the client's order (the map's path writes
// differently named fields in random order, and a name's values in order).
// The request id is o.requestID, which the gateway may have made.
func appendListedFields(b []byte, o outRequest) []byte {
	var one [1]string // fits the fields h1 lists: one Connection at most
	connection := one[:0]
	for i := range o.fields {
		if o.fields[i].Name == "Connection" {
			connection = append(connection, o.fields[i].Value)
		}
	}
	for _, f := range o.fields {
		// Listed values are plain (h1.RequestFields), as are request ids.
		if f.Name != internalauth.HeaderRequestID && forwarded(f.Name, connection, o) {
			b = httpfield.AppendPlain(b, f.Name, f.Value)
		}
	}
	if o.requestID != "" && forwarded(internalauth.HeaderRequestID, connection, o) {
		b = httpfield.AppendPlain(b, internalauth.HeaderRequestID, o.requestID)
	}
	return b
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
// 101 are skipped. The head is read as one string and the values put in h
// are substrings of it, their slices cut from vals' backing array: one or
// two allocations for the whole head.
func readResponseHead(br *bufio.Reader, h http.Header, vals []string) (respHead, error) {
	for first := true; ; first = false {
		head, err := readAnswerHead(br)
		if err != nil {
			if first && errors.Is(err, errNothingRead) {
				return respHead{}, errors.Join(errNoResponse, err)
			}
			return respHead{}, err
		}
		line, fields, _ := strings.Cut(head, "\n")
		rh, err := parseStatusLine(line)
		if err != nil {
			return rh, err
		}
		if err := parseHeaderFields(fields, h, vals, &rh); err != nil {
			return rh, err
		}
		if rh.status >= 200 || rh.status == http.StatusSwitchingProtocols {
			return rh, nil
		}
		clear(h)
	}
}

// parseStatusLine reads "HTTP/1.1 200 OK\r" (the line without its LF).
func parseStatusLine[T string | []byte](line T) (respHead, error) {
	if len(line) < 12 || string(line[:7]) != "HTTP/1." || line[8] != ' ' {
		return respHead{}, errBadAnswer
	}
	status := 0
	for i := 9; i < 12; i++ {
		c := line[i]
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

// parseHeaderFields reads the field lines of a head, through its empty line.
func parseHeaderFields(fields string, h http.Header, vals []string, rh *respHead) error {
	var connection []string
	for n := 0; ; n++ {
		key, value, rest, err := nextField(fields, n)
		if err != nil {
			return err
		}
		if key == "" {
			break
		}
		fields = rest
		if err := rh.frame(key, value); err != nil {
			return err
		}
		if key == "Connection" {
			connection = append(connection, value)
		}
		if skipResponseHeader(key) {
			continue
		}
		if vv, ok := h[key]; ok {
			h[key] = append(vv, value)
		} else {
			vals = append(vals, value)
			h[key] = vals[len(vals)-1 : len(vals) : len(vals)]
		}
	}
	if rh.chunked {
		rh.contentLength = -1
		delete(h, "Content-Length")
	}
	if len(connection) > 0 {
		for k := range h {
			if httpfield.HasToken(connection, k) {
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

func canonicalKey(name string) string {
	if httpfield.IsCanonical(name) {
		return name
	}
	if k, ok := commonKeys[name]; ok {
		return k
	}
	return textproto.CanonicalMIMEHeaderKey(name)
}

// writerOnly hides a connection's ReadFrom, so io.CopyBuffer uses the
// pooled buffer instead of allocating its own.
type writerOnly struct{ io.Writer }
