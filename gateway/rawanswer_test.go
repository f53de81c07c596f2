package gateway

import (
	"bufio"
	"net/http"
	"net/textproto"
	"reflect"
	"strings"
	"testing"

	"github.com/opencollab/backend/gateway/internal/httpfield"
)

// The written fields of an answer head say what the header map's path
// says: the same fields and values (names valid, as the inbound server
// writes them), the same framing, the same refusals.
func TestRawAnswerHeadMatchesHeaderMap(t *testing.T) {
	t.Parallel()
	heads := map[string]string{
		"plain": "HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=utf-8\r\n" +
			"Date: Thu, 26 Nov 2026 12:00:00 GMT\r\nContent-Length: 2\r\n\r\n",
		"interim, lower case, repeated, hop-by-hop": "HTTP/1.1 100 Continue\r\nX-Interim: dropped\r\n\r\n" +
			"HTTP/1.1 201 Created\r\ncontent-type: text/plain\r\nSet-Cookie: a=1\r\nX-Other: o\r\nSet-Cookie: b=2\r\n" +
			"Keep-Alive: timeout=5\r\nConnection: keep-alive\r\nX-Request-Id: svc-id\r\nX-Pad:   spaced \t\r\n" +
			"Content-Length: 0\r\n\r\n",
		"connection names a field": "HTTP/1.1 200 OK\r\nConnection: X-Hop\r\nX-Hop: gone\r\nX-Kept: yes\r\nContent-Length: 0\r\n\r\n",
		"close and a Close field":  "HTTP/1.1 200 OK\r\nConnection: close\r\nClose: gone\r\nContent-Length: 0\r\n\r\n",
		"chunked":                  "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-A: 1\r\n\r\n",
		"chunked with a length":    "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
		"invalid name":             "HTTP/1.1 200 OK\r\nBad Name: x\r\nX-Ok: y\r\n\r\n",
		"HTTP/1.0":                 "HTTP/1.0 404 Not Found\r\nContent-Length: 1\r\n\r\n",
		"two lengths":              "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n",
		"folded header":            "HTTP/1.1 200 OK\r\nX-A: 1\r\n folded\r\n\r\n",
		"gzip coding":              "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n",
		"no status":                "HTTP/1.1 OK\r\n\r\n",
		"empty":                    "",
	}
	for name, head := range heads {
		want := http.Header{}
		wantHead, wantErr := readResponseHead(bufio.NewReader(strings.NewReader(head)), want, nil)
		for k := range want {
			if !httpfield.ValidName(k) {
				delete(want, k)
			}
		}
		a, fields, raw, err := readResponseHeadRaw(bufio.NewReader(strings.NewReader(head)), make([]byte, 0, 64))
		if (err != nil) != (wantErr != nil) {
			t.Errorf("%s: error %v, the map's path %v", name, err, wantErr)
			continue
		}
		if err != nil {
			continue
		}
		got := http.Header{}
		if raw {
			got = readFields(t, a.Fields)
		} else if err := parseHeaderFields(fields, got, nil, &a.respHead); err != nil {
			t.Errorf("%s: fallback: %v", name, err)
		}
		if !reflect.DeepEqual(got, want) || a.respHead != wantHead {
			t.Errorf("%s (raw %v):\n got %v %+v\nwant %v %+v", name, raw, got, a.respHead, want, wantHead)
		}
		if raw && (a.ContentType != (got["Content-Type"] != nil) || a.Date != (got["Date"] != nil) ||
			a.requestID != (got["X-Request-Id"] != nil) || a.ContentLength != wantHead.contentLength) {
			t.Errorf("%s: flags %+v for %v", name, a, got)
		}
	}
}

func readFields(t *testing.T, fields []byte) http.Header {
	t.Helper()
	h, err := textproto.NewReader(bufio.NewReader(strings.NewReader(string(fields) + "\r\n"))).ReadMIMEHeader()
	if err != nil {
		t.Fatalf("fields %q: %v", fields, err)
	}
	return http.Header(h)
}
