package gateway

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"sync"

	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/opencollab/backend/gateway/internal/httpfield"
	"github.com/opencollab/backend/pkg/internalauth"
)

// When the service behind a realtime route runs in this process
// (Deps.ContentRealtime), a tunnel would cost a second connection and a
// read and a write in the gateway per frame and direction. The gateway
// hands the upgrade to the service's handler instead: the request carries
// the principal the tunnel would sign, the service checks the token,
// applies its limits and hijacks the client's connection itself.
//
// A handed-over connection holds one of the gateway's tunnel slots
// (MAX_REALTIME_TUNNELS) until the service closes it; it belongs to the
// service, whose shutdown closes it with a close frame, so the gateway's
// Close does not touch it.

// handOver sets h as the in-process handler of svc's realtime routes.
func (rt *router) handOver(svc service, h http.Handler) {
	if h == nil {
		return
	}
	for _, r := range rt.realtime {
		if r.service == svc {
			r.local = h
		}
	}
}

// handOver serves an upgrade with the service's handler in this process;
// a tunnel slot is held. ctx carries the handshake's span.
func (g *Gateway) handOver(ctx context.Context, w http.ResponseWriter, r *http.Request, h http.Handler) {
	echoRequestID(w.Header(), r.Header)
	hw := &handOverWriter{ResponseWriter: w, release: g.tunnels.release}
	defer func() { // deferred: a panicking handler frees the slot too
		if !hw.hijacked {
			g.tunnels.release() // refused: the answer went to the client as is
		}
	}()
	h.ServeHTTP(hw, handOverRequest(ctx, r, g.realtimeAuth.current()))
}

// upgradePropagator writes the trace headers the tunnel's head carries.
var upgradePropagator = propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})

// handOverRequest is r as the tunnel would forward it: the client's
// end-to-end headers without its credentials or internal ones, the trace
// context of ctx and the signed realtime principal.
func handOverRequest(ctx context.Context, r *http.Request, p *signedPrincipal) *http.Request {
	h := make(http.Header, len(r.Header)+5)
	connection := r.Header["Connection"]
	for k, vv := range r.Header {
		if !skipRequestHeader(k) && !internalHeader(k) && !httpfield.HasToken(connection, k) {
			h[k] = vv
		}
	}
	if trace.SpanContextFromContext(ctx).IsValid() {
		delete(h, "Traceparent")
		delete(h, "Tracestate")
	}
	upgradePropagator.Inject(ctx, propagation.HeaderCarrier(h))
	h[internalauth.HeaderPrincipal] = p.principal
	h[internalauth.HeaderTimestamp] = p.timestamp
	h[internalauth.HeaderSignature] = p.signature
	h["Connection"] = []string{"Upgrade"}
	h["Upgrade"] = []string{"websocket"}
	out := r.WithContext(ctx)
	out.Header = h
	return out
}

// handOverWriter lets the service hijack the client's connection and
// frees the tunnel slot when the service closes it.
type handOverWriter struct {
	http.ResponseWriter
	release  func()
	hijacked bool
}

// Hijack is implemented, not only reachable through Unwrap: middleware
// wrappers (httpsnoop's) offer it only when the writer they wrap does.
func (w *handOverWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	c, brw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	w.hijacked = true
	return handedConn(c, w.release), brw, nil
}

func (w *handOverWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// handedConn wraps c to call release once when closed. A TCP connection
// stays a *net.TCPConn underneath, its descriptor reachable
// (syscall.Conn): the service polls it instead of parking a goroutine in
// a read per connection.
func handedConn(c net.Conn, release func()) net.Conn {
	r := &releaser{release: release}
	if tcp, ok := c.(*net.TCPConn); ok {
		return &handedTCP{TCPConn: tcp, rel: r}
	}
	return &handedOther{Conn: c, rel: r}
}

// releaser frees the slot on the first Close.
type releaser struct {
	once    sync.Once
	release func()
}

func (r *releaser) closed(err error) error {
	r.once.Do(r.release)
	return err
}

type handedTCP struct {
	*net.TCPConn
	rel *releaser
}

func (c *handedTCP) Close() error { return c.rel.closed(c.TCPConn.Close()) }

type handedOther struct {
	net.Conn
	rel *releaser
}

func (c *handedOther) Close() error { return c.rel.closed(c.Conn.Close()) }
