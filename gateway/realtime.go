package gateway

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/opencollab/backend/gateway/internal/httpfield"
	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
)

// Realtime sync endpoints are WebSocket upgrades opened by browsers, which
// cannot set the API-key headers: the gateway does not authenticate them.
// It forwards the upgrade signed as internalauth.RealtimeUpgrade (no
// workspace), and svc-content verifies the user token itself. Once the
// service answers 101 the gateway only tunnels bytes both ways; when the
// service runs in this process, the gateway hands it the client's
// connection instead (handover.go).

var (
	errUpgradeRequired = api.Errorf(api.InvalidArgument,
		"this realtime endpoint needs a WebSocket upgrade (GET with Connection: Upgrade and Upgrade: websocket)")
	errTunnelsFull = api.Errorf(api.Unavailable, "too many realtime connections on this gateway; retry later")
	errShutdown    = api.Errorf(api.Unavailable, "this gateway is shutting down; reconnect")
)

// isWebSocketUpgrade reports whether h asks for a WebSocket upgrade.
func isWebSocketUpgrade(h http.Header) bool {
	return httpfield.HasToken(h["Connection"], "upgrade") && httpfield.HasToken(h["Upgrade"], "websocket")
}

// realtime serves a GET on a realtime path.
func (g *Gateway) realtime(ctx context.Context, w http.ResponseWriter, r *http.Request, id string, rt *route) {
	if !isWebSocketUpgrade(r.Header) {
		g.reject(ctx, w, r, id, errUpgradeRequired)
		return
	}
	if rt.proxy == nil && rt.local == nil {
		g.reject(ctx, w, r, id, api.Errorf(api.Unavailable, "%s service is not deployed", rt.service))
		return
	}
	if !g.tunnels.acquire() {
		err := errTunnelsFull
		if g.tunnels.shutdown.Load() {
			err = errShutdown
		}
		g.reject(ctx, w, r, id, err)
		return
	}
	ctx, span := g.tracer.Start(ctx, rt.spanName, g.spanOpts...)
	if rt.local != nil {
		g.handOver(ctx, w, r, rt.local)
		span.End()
		return
	}
	tn := rt.proxy.upgrade(ctx, w, r, g.realtimeAuth.current())
	span.End() // the span covers the handshake, not the tunnel's life
	if tn == nil {
		g.tunnels.release()
		return
	}
	// The tunnel runs on goroutines of its own and the handler returns:
	// the HTTP server's connection state (its buffers, the request, the
	// middleware's stack) is freed instead of being held for the tunnel's
	// whole life.
	go g.tunnels.run(tn)
}

// upgrade forwards the handshake on a new connection. On a 101 it takes
// over the client connection and returns the tunnel to run; any other
// answer (the service refusing the token, say) goes to the client as is.
func (p *serviceProxy) upgrade(ctx context.Context, w http.ResponseWriter, r *http.Request, principal *signedPrincipal) *tunnel {
	c, err := p.pool.dial(ctx)
	if err != nil {
		p.fail(ctx, w, r, err)
		return nil
	}
	var th traceHeaders
	th.inject(ctx)
	bp := getBuf()
	defer putBuf(bp)
	head := appendRequestHead((*bp)[:0], r, outRequest{host: p.host, principal: principal, trace: &th, upgrade: true}, 0)
	stop := abortOnCancel(ctx, c)
	h := w.Header()
	_, err = c.Write(head)
	var rh respHead
	if err == nil {
		rh, err = readResponseHead(c.br, h, nil)
	}
	if !stop() && err == nil {
		err = ctx.Err()
	}
	if err != nil {
		_ = c.Close()
		clear(h)
		p.fail(ctx, w, r, err)
		return nil
	}
	echoRequestID(h, r.Header)
	if rh.status != http.StatusSwitchingProtocols {
		defer c.Close()
		w.WriteHeader(rh.status)
		if bodyAllowed(r.Method, rh.status) {
			_, _ = copyAnswerBody(w, c.br, rh)
		}
		return nil
	}
	return p.takeOver(ctx, w, r, c, (*bp)[:0])
}

// takeOver hijacks the client connection, hands it the service's 101 (and
// whatever the service sent after it) and returns the joined tunnel.
func (p *serviceProxy) takeOver(ctx context.Context, w http.ResponseWriter, r *http.Request, c *upConn, buf []byte) *tunnel {
	client, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		_ = c.Close()
		p.logger.WarnContext(ctx, "cannot take over the client connection", "error", err)
		clear(w.Header())
		api.WriteError(ctx, w, api.Errorf(api.Internal, "WebSocket upgrade is not possible on this connection"))
		return nil
	}
	// The server's read and write timeouts are for requests, not for a
	// tunnel that may stay open for hours.
	_ = client.SetDeadline(time.Time{})
	buf = append(buf, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"...)
	for k, vv := range w.Header() {
		for _, v := range vv {
			buf = httpfield.Append(buf, k, v)
		}
	}
	buf = append(buf, "\r\n"...)
	if n := c.br.Buffered(); n > 0 {
		early, _ := c.br.Peek(n)
		buf = append(buf, early...)
	}
	_, err = client.Write(buf)
	if err == nil && brw.Reader.Buffered() > 0 {
		early, _ := brw.Reader.Peek(brw.Reader.Buffered())
		_, err = c.Write(early)
	}
	if err != nil {
		_ = client.Close()
		_ = c.Close()
		p.logger.DebugContext(ctx, "tunnel broke during the handshake", "service", p.name, "path", r.URL.Path, "error", err)
		return nil
	}
	return &tunnel{client: client, service: c.Conn}
}

// echoRequestID returns the request id to the client when the service did
// not set one itself.
func echoRequestID(resp, req http.Header) { echoID(resp, req.Get(internalauth.HeaderRequestID)) }

// echoID is echoRequestID for an id held outside r.Header (h1's listed
// requests keep it in the call).
func echoID(resp http.Header, id string) {
	if _, ok := resp[internalauth.HeaderRequestID]; !ok && id != "" {
		resp[internalauth.HeaderRequestID] = []string{id}
	}
}

// matchPattern matches a clean path against a pattern whose {name}
// segments stand for exactly one non-empty segment. It does not allocate.
func matchPattern(pattern, path string) bool {
	for {
		if pattern == "" || path == "" {
			return pattern == path
		}
		if pattern[0] != '/' || path[0] != '/' {
			return false
		}
		pattern, path = pattern[1:], path[1:]
		pi, qi := segmentEnd(pattern), segmentEnd(path)
		want, got := pattern[:pi], path[:qi]
		isParam := strings.HasPrefix(want, "{") && strings.HasSuffix(want, "}")
		if got == "" || (want != got && !isParam) {
			return false
		}
		pattern, path = pattern[pi:], path[qi:]
	}
}

func segmentEnd(s string) int {
	if i := strings.IndexByte(s, '/'); i >= 0 {
		return i
	}
	return len(s)
}
