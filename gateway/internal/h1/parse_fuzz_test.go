package h1

import (
	"net/http"
	"net/url"
	"reflect"
	"testing"

	"github.com/opencollab/backend/gateway/internal/httpfield"
)

// FuzzParseHead: whenever the fast parser accepts a head, net/http's
// parser (with http.Server's Host checks) must accept it too and read the
// same request from it. Heads the fast parser declines go to net/http's
// parser, so the two can only differ where this target would catch it.
func FuzzParseHead(f *testing.F) {
	for _, seed := range []string{
		"POST /v2/users/get HTTP/1.1\r\nHost: gw\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n",
		"GET /v2/crdt/sync/o/d/e HTTP/1.1\r\nHost: gw\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
		"POST /a?b=c%20d HTTP/1.0\r\nHost: gw\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n",
		"POST /a HTTP/1.1\r\nhost: gw\r\nx-svc-api-key: k\r\nx-svc-auth-token: t\r\nTraceparent: 00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n",
		"GET / HTTP/1.1\r\n\r\n",
		"GET /%41 HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
		"GET http://x/y HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, head []byte) {
		fast := &http.Request{URL: &url.URL{}, Header: http.Header{}}
		var (
			vals   []string
			fields []httpfield.Field
		)
		if !parseFast(fast, string(head), &vals, &fields, false) {
			return
		}
		// Listing only accepts the same heads and lists the same fields.
		bare := &http.Request{URL: &url.URL{}, Header: http.Header{}}
		var only []httpfield.Field
		if !parseFast(bare, string(head), new([]string), &only, true) || len(bare.Header) != 0 || !reflect.DeepEqual(only, fields) {
			t.Fatalf("listing only differs for %q: header %v, fields %v, want %v", head, bare.Header, only, fields)
		}
		// The listed fields are the header map's, in the head's order, and
		// plain: a proxy may write them without Append's sanitising.
		listed := http.Header{}
		for _, f := range fields {
			listed[f.Name] = append(listed[f.Name], f.Value)
			if p, a := httpfield.AppendPlain(nil, f.Name, f.Value), httpfield.Append(nil, f.Name, f.Value); string(p) != string(a) {
				t.Fatalf("listed field %q of %q is not plain: %q, sanitised %q", f.Name, head, p, a)
			}
		}
		if !reflect.DeepEqual(listed, fast.Header) {
			t.Fatalf("listed fields differ from the header map for %q:\nlisted %v\nmap    %v", head, listed, fast.Header)
		}
		slow := &http.Request{}
		if err := parseSlow(slow, head); err != nil {
			t.Fatalf("fast parser accepted what net/http refuses (%v): %q", err, head)
		}
		if fast.Method != slow.Method || fast.RequestURI != slow.RequestURI || fast.Proto != slow.Proto ||
			fast.ProtoMajor != slow.ProtoMajor || fast.ProtoMinor != slow.ProtoMinor || fast.Host != slow.Host ||
			fast.ContentLength != slow.ContentLength || fast.Close != slow.Close {
			t.Fatalf("request line/framing differs for %q:\nfast %s %s %s %d/%d host=%q cl=%d close=%v\nslow %s %s %s %d/%d host=%q cl=%d close=%v",
				head, fast.Method, fast.RequestURI, fast.Proto, fast.ProtoMajor, fast.ProtoMinor, fast.Host, fast.ContentLength, fast.Close,
				slow.Method, slow.RequestURI, slow.Proto, slow.ProtoMajor, slow.ProtoMinor, slow.Host, slow.ContentLength, slow.Close)
		}
		if *fast.URL != *slow.URL {
			t.Fatalf("URL differs for %q: fast %#v slow %#v", head, *fast.URL, *slow.URL)
		}
		if !reflect.DeepEqual(fast.Header, slow.Header) {
			t.Fatalf("header differs for %q:\nfast %v\nslow %v", head, fast.Header, slow.Header)
		}
		if !reflect.DeepEqual(fast.TransferEncoding, slow.TransferEncoding) {
			t.Fatalf("transfer coding differs for %q: %v vs %v", head, fast.TransferEncoding, slow.TransferEncoding)
		}
	})
}
