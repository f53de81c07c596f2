package gateway

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/trace"
)

// The upstream head written from h1's listed fields (r.Header left empty,
// the request id passed along) holds exactly the fields the header map's path
// writes from net/http's parse of the same head (only the order of
// differently named fields may differ, as it does between two runs of the
// map's path), and the map filled for realtime upgrades is net/http's.
func TestListedHeadMatchesHeaderMap(t *testing.T) {
	t.Parallel()
	heads := map[string]string{
		"plain": "POST /v2/users/get HTTP/1.1\r\nHost: gw\r\nContent-Type: application/json\r\n" +
			"X-Svc-Api-Key: k\r\nX-Svc-Auth-Token: t\r\nUser-Agent: ua\r\nAccept: */*\r\nContent-Length: 2\r\n\r\n{}",
		"lower case, client request id and trace": "POST /v2/a?x=1 HTTP/1.1\r\nhost: gw\r\nx-request-id: abc-1\r\n" +
			"traceparent: 00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01\r\ntracestate: a=b\r\n" +
			"accept-encoding: gzip\r\ncontent-length: 0\r\n\r\n",
		"insane request id replaced": "POST /v2/a HTTP/1.1\r\nHost: gw\r\nX-Request-Id: bad id\r\nX-Custom: 1\r\n\r\n",
		"hop-by-hop and forwarding fields": "POST /v2/a HTTP/1.1\r\nHost: gw\r\nConnection: close\r\nClose: x\r\n" +
			"Keep-Alive: 5\r\nTe: trailers\r\nProxy-Authorization: p\r\nForwarded: for=x\r\nX-Forwarded-For: 1.2.3.4\r\n" +
			"X-Velt-Api-Key: v\r\nX-Svc-Principal: forged\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\nx",
		"HTTP/1.0 keep-alive": "POST /v2/a HTTP/1.0\r\nConnection: keep-alive\r\nKeep-Alive: x\r\nContent-Length: 0\r\n\r\n",
		"chunked":             "POST /v2/a HTTP/1.1\r\nHost: gw\r\nTransfer-Encoding: chunked\r\nBaggage: k=v\r\n\r\n0\r\n\r\n",
		"upgrade": "GET /v2/crdt/sync/o/d/e HTTP/1.1\r\nHost: gw\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n" +
			"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: http://x\r\n\r\n",
	}
	parent := trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: trace.TraceID{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
		SpanID:  trace.SpanID{1, 2, 3, 4, 5, 6, 7, 8}, TraceFlags: trace.FlagsSampled,
	})
	th := traceHeaders{parent: parent, state: "s=1"}
	o := outRequest{host: "svc:1", trace: &th}
	ids, refIDs := newRequestIDs(), newRequestIDs()
	refIDs.prefix = ids.prefix
	type result struct {
		listed string
		filled http.Header
		ok     bool
	}
	got := make(chan result, 1)
	srv := newH1Server(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f := newClientFields(w, r)
		id := ids.ensure(&f, new(idSlot))
		lo := o
		lo.fields, lo.listed, lo.requestID = f.list, f.listed, id
		res := result{listed: string(appendRequestHead(nil, r, lo, r.ContentLength)), ok: f.listed && len(r.Header) == 0}
		f.fillHeader(id)
		res.filled = r.Header
		got <- res
	}))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	for name, head := range heads {
		ref, err := http.ReadRequest(bufio.NewReader(strings.NewReader(head)))
		if err != nil {
			t.Fatal(err)
		}
		refIDs.ensure(&clientFields{h: ref.Header}, new(idSlot))
		want := string(appendRequestHead(nil, ref, o, ref.ContentLength))
		conn, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.Write([]byte(head)); err != nil {
			t.Fatal(err)
		}
		res := <-got
		_, _ = http.ReadResponse(bufio.NewReader(conn), nil)
		_ = conn.Close()
		if !res.ok {
			t.Errorf("%s: not listed, or r.Header not empty", name)
		}
		if l, m := sortedLines(res.listed), sortedLines(want); l != m {
			t.Errorf("%s: listed head\n%s\nmap's head\n%s", name, l, m)
		}
		if !reflect.DeepEqual(res.filled, ref.Header) {
			t.Errorf("%s: filled header %v, net/http's %v", name, res.filled, ref.Header)
		}
	}
}

// sortedLines is a head with its field lines sorted, the request line first.
func sortedLines(head string) string {
	lines := strings.Split(strings.TrimSuffix(head, "\r\n\r\n"), "\r\n")
	slices.Sort(lines[1:])
	return fmt.Sprintf("%q", lines)
}
