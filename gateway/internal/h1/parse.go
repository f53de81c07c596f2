package h1

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/opencollab/backend/gateway/internal/httpfield"
)

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
	if !plainValue(value) {
		return "", "", false
	}
	if !httpfield.IsCanonical(key) {
		if !plainName(key) {
			return "", "", false
		}
		key = canonical(key)
	}
	return key, trimBlanks(value), true
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
