package h1

import (
	"bufio"
	"bytes"
	"errors"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"

	"github.com/opencollab/backend/gateway/internal/httpfield"
)

// errHeaderTooLarge answers 431, like net/http.
var errHeaderTooLarge = errors.New("request header too large")

// readHead reads one request head (through the empty line) into buf.
func readHead(br *bufio.Reader, buf []byte, limit int) ([]byte, error) {
	for {
		line, err := br.ReadSlice('\n')
		if len(buf)+len(line) > limit {
			return buf, errHeaderTooLarge
		}
		buf = append(buf, line...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return buf, err
		}
		if len(line) <= 2 && (len(line) == 1 || line[0] == '\r') && len(buf) > len(line) {
			return buf, nil
		}
	}
}

// parseHead fills r from head. The common, plainly formed request is
// parsed here with one allocation (the head as a string); anything unusual
// goes to net/http's own parser so the two cannot disagree.
// fields gets the request's header fields in order on the fast path and is
// emptied otherwise; listed reports which. listOnly leaves r.Header empty
// when the fields are listed.
func parseHead(r *http.Request, head []byte, vals *[]string, fields *[]httpfield.Field, listOnly bool) (listed bool, err error) {
	if ok := parseFast(r, string(head), vals, fields, listOnly); ok {
		return true, nil
	}
	*fields = (*fields)[:0]
	return false, parseSlow(r, head)
}

// parseSlow is http.ReadRequest plus the checks http.Server adds.
func parseSlow(r *http.Request, head []byte) error {
	req, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(head)))
	if err != nil {
		return err
	}
	// ReadRequest drops the Host field; the server's checks need it.
	if req.ProtoMajor != 1 && !(req.ProtoMajor == 2 && req.ProtoMinor == 0 && req.Method == "PRI") {
		return &statusError{http.StatusHTTPVersionNotSupported, "unsupported protocol version"}
	}
	hosts := hostFields(head)
	if req.ProtoAtLeast(1, 1) && len(hosts) == 0 && req.Method != http.MethodConnect {
		return &statusError{http.StatusBadRequest, "missing required Host header"}
	}
	if len(hosts) > 1 {
		return &statusError{http.StatusBadRequest, "too many Host headers"}
	}
	if len(hosts) == 1 && !validHost(hosts[0]) {
		return &statusError{http.StatusBadRequest, "malformed Host header"}
	}
	for k, vv := range req.Header {
		if !httpfield.ValidName(k) {
			return &statusError{http.StatusBadRequest, "invalid header name"}
		}
		for _, v := range vv {
			if !validFieldValue(v) {
				return &statusError{http.StatusBadRequest, "invalid header value"}
			}
		}
	}
	r.Method, r.URL, r.Proto, r.ProtoMajor, r.ProtoMinor = req.Method, req.URL, req.Proto, req.ProtoMajor, req.ProtoMinor
	r.Header, r.ContentLength, r.TransferEncoding, r.Close = req.Header, req.ContentLength, req.TransferEncoding, req.Close
	r.Host, r.RequestURI, r.Trailer = req.Host, req.RequestURI, req.Trailer
	return nil
}

// hostFields returns the Host field values of a head ReadRequest accepted.
func hostFields(head []byte) []string {
	var hosts []string
	lines := bytes.Split(head, []byte("\n"))
	for _, line := range lines[1:] {
		if len(bytes.TrimRight(line, "\r")) == 0 {
			break
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if ok && bytes.EqualFold(name, []byte("Host")) {
			hosts = append(hosts, string(bytes.Trim(value, " \t\r")))
		}
	}
	return hosts
}

// statusError is a refusal net/http explains to the client.
type statusError struct {
	code int
	text string
}

func (e *statusError) Error() string { return e.text }

func validFieldValue(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < ' ' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

func validHost(h string) bool {
	for i := 0; i < len(h); i++ {
		if !hostByte(h[i]) {
			return false
		}
	}
	return true
}

func hostByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		strings.IndexByte("!$%&'()*+,-.:;=[]_~", c) >= 0
}

// parseFast parses a head of only well-formed, common constructs, or
// reports false without having decided anything. fields gets the fields
// put in r.Header, in the client's order: a proxy writes them on from
// there instead of iterating the map. listOnly leaves r.Header empty.
func parseFast(r *http.Request, head string, vals *[]string, fields *[]httpfield.Field, listOnly bool) bool {
	line, rest, ok := cutLine(head)
	if !ok {
		return false
	}
	method, line, ok1 := strings.Cut(line, " ")
	uri, proto, ok2 := strings.Cut(line, " ")
	if !ok1 || !ok2 || !plainMethod(method) || !plainURI(uri) {
		return false
	}
	switch proto {
	case "HTTP/1.1":
		r.ProtoMinor = 1
	case "HTTP/1.0":
		r.ProtoMinor = 0
	default:
		return false
	}
	r.Method, r.RequestURI, r.Proto, r.ProtoMajor = method, uri, proto, 1
	path, query, hasQuery := strings.Cut(uri, "?")
	*r.URL = url.URL{Path: path, RawQuery: query, ForceQuery: hasQuery && query == ""}
	h := r.Header
	clear(h)
	v, list := (*vals)[:0], (*fields)[:0]
	r.ContentLength, r.TransferEncoding, r.Close, r.Host, r.Trailer = 0, nil, false, "", nil
	var connection string
	sized, chunked := false, false
	for {
		line, rest, ok = cutLine(rest)
		if !ok {
			return false
		}
		if line == "" {
			break
		}
		key, value, ok := plainField(line)
		if !ok {
			return false
		}
		switch key {
		case "Host":
			if r.Host != "" || value == "" || !validHost(value) {
				return false
			}
			r.Host = value
			continue
		case "Content-Length":
			if sized || chunked || !digits(value) {
				return false
			}
			sized = true
			r.ContentLength = atoi(value)
		case "Transfer-Encoding":
			if sized || chunked || value != "chunked" || r.ProtoMinor == 0 {
				return false
			}
			chunked = true
			r.ContentLength, r.TransferEncoding = -1, chunkedTE
			continue
		case "Connection":
			if connection != "" {
				return false
			}
			connection = value
		case "Pragma", "Trailer", "Cache-Control":
			return false
		}
		// A repeated field is net/http's to parse.
		if listOnly {
			if listed(list, key) {
				return false
			}
		} else {
			// One map operation: a repeated field overwrites and leaves
			// the count unchanged.
			n := len(h)
			v = append(v, value)
			h[key] = v[len(v)-1 : len(v) : len(v)]
			if len(h) == n {
				return false
			}
		}
		list = append(list, httpfield.Field{Name: key, Value: value})
	}
	*vals, *fields = v, list
	if r.Host == "" && r.ProtoMinor == 1 {
		return false
	}
	return setClose(r, connection)
}

// listed reports whether list has a field named key: a scan of the ~5-15
// fields of a request is cheaper than a map.
func listed(list []httpfield.Field, key string) bool {
	for i := range list {
		if list[i].Name == key {
			return true
		}
	}
	return false
}

// cutLine cuts s after its first line, which must end in CRLF: a bare LF
// is net/http's to judge.
func cutLine(s string) (line, rest string, ok bool) {
	i := strings.IndexByte(s, '\n')
	if i < 1 || s[i-1] != '\r' {
		return "", "", false
	}
	return s[:i-1], s[i+1:], true
}

// plainField splits a field line whose name is letters, digits and
// hyphens and whose value is visible ASCII, spaces and tabs. A name the
// client wrote in canonical form (the usual case) is used as it is, a
// substring of the head: no lookup, no copy.
func plainField(line string) (key, value string, ok bool) {
	i := strings.IndexByte(line, ':')
	if i <= 0 {
		return "", "", false
	}
	key, value = line[:i], line[i+1:]
	for j := 0; j < len(value); j++ {
		if !valueByte[value[j]] {
			return "", "", false
		}
	}
	if !httpfield.IsCanonical(key) {
		if !plainName(key) {
			return "", "", false
		}
		key = canonical(key)
	}
	return key, trimBlanks(value), true
}

func plainName(n string) bool {
	for i := 0; i < len(n); i++ {
		c := n[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// valueByte marks the bytes a plain field value may hold.
var valueByte = func() (t [256]bool) {
	t['\t'] = true
	for c := 0x20; c <= 0x7e; c++ {
		t[c] = true
	}
	return t
}()

// trimBlanks is strings.Trim(v, " \t") without its cutset machinery.
func trimBlanks(v string) string {
	for len(v) > 0 && (v[0] == ' ' || v[0] == '\t') {
		v = v[1:]
	}
	for len(v) > 0 && (v[len(v)-1] == ' ' || v[len(v)-1] == '\t') {
		v = v[:len(v)-1]
	}
	return v
}

var chunkedTE = []string{"chunked"}

// setClose is net/http's shouldClose for the plain Connection values.
func setClose(r *http.Request, connection string) bool {
	switch {
	case connection == "":
		r.Close = r.ProtoMinor == 0
	case strings.EqualFold(connection, "close"):
		r.Close = true
	case strings.EqualFold(connection, "keep-alive"), strings.EqualFold(connection, "upgrade"):
		r.Close = r.ProtoMinor == 0 && !strings.EqualFold(connection, "keep-alive")
	default:
		return false
	}
	return true
}

func plainMethod(m string) bool {
	if m == "" {
		return false
	}
	for i := 0; i < len(m); i++ {
		if m[i] < 'A' || m[i] > 'Z' {
			return false
		}
	}
	return true
}

// plainURI: an origin-form target whose path url.URL keeps as is (no
// escapes, nothing EscapedPath would escape), so RawPath stays empty.
func plainURI(u string) bool {
	if len(u) == 0 || u[0] != '/' || strings.HasPrefix(u, "//") {
		return false
	}
	inQuery := false
	for i := 0; i < len(u); i++ {
		c := u[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("-._~$&+,;=:@/", c) >= 0:
		case c == '?':
			inQuery = true
		case inQuery && strings.IndexByte("!'()*%", c) >= 0:
		default:
			return false
		}
	}
	return true
}

func digits(s string) bool {
	if s == "" || len(s) > 15 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func atoi(s string) int64 {
	var n int64
	for i := 0; i < len(s); i++ {
		n = n*10 + int64(s[i]-'0')
	}
	return n
}

// commonKeys interns the header names clients send most, in the spellings
// they use, so canonicalising them allocates nothing.
var commonKeys = func() map[string]string {
	m := map[string]string{}
	for _, k := range []string{"Host", "Content-Type", "Content-Length", "Connection", "Accept", "User-Agent",
		"Accept-Encoding", "Transfer-Encoding", "Expect", "Upgrade", "Traceparent", "Tracestate", "Baggage",
		"X-Request-Id", "X-Svc-Api-Key", "X-Svc-Auth-Token", "Authorization", "Sec-Websocket-Key",
		"Sec-Websocket-Version", "Sec-Websocket-Protocol", "Sec-Websocket-Extensions", "Origin"} {
		m[k] = k
		m[strings.ToLower(k)] = k
	}
	return m
}()

func canonical(name string) string {
	if k, ok := commonKeys[name]; ok {
		return k
	}
	return textproto.CanonicalMIMEHeaderKey(name)
}
