package gateway

import (
	"context"
	"crypto/tls"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/opencollab/backend/pkg/api"
)

// serviceProxy sends requests to one service over its own pool of
// keep-alive connections. The handler's goroutine does the whole exchange:
// one write of the head (and a small body), one read of the answer, whose
// head goes straight into the client's response; bodies are streamed with
// pooled buffers, never decoded.
type serviceProxy struct {
	name   service
	host   string // the Host header sent
	pool   *connPool
	logger *slog.Logger
	// unavailable is prebuilt: the message never changes.
	unavailable *api.Error
}

func newServiceProxy(name service, target *url.URL, logger *slog.Logger) *serviceProxy {
	addr := target.Host
	if target.Port() == "" {
		addr += map[bool]string{true: ":443", false: ":80"}[target.Scheme == "https"]
	}
	var tlsCfg *tls.Config
	if target.Scheme == "https" {
		tlsCfg = &tls.Config{ServerName: target.Hostname(), MinVersion: tls.VersionTLS12}
	}
	return &serviceProxy{
		name: name, host: target.Host, pool: newConnPool(addr, tlsCfg), logger: logger,
		unavailable: api.Errorf(api.Unavailable, "%s service is unavailable", name),
	}
}

// aLongTimeAgo is a deadline that fails a blocked read or write at once.
var aLongTimeAgo = time.Unix(1, 0)

// hopState is the memory of one proxied exchange, part of the request's
// call: the trace headers for the service and the backing array of the
// answer's header values (which the client's server reads after serve
// returns, so it cannot be pooled).
type hopState struct {
	fields    clientFields
	requestID string // the id the gateway kept or made (requestIDs.ensure)
	trace     traceHeaders
	vals      [8]string
	start     time.Time // the request's, for the connection pool's clock
}

// serve proxies r as principal and writes the answer or an envelope to w.
// ctx carries the gateway's span.
func (p *serviceProxy) serve(ctx context.Context, w http.ResponseWriter, r *http.Request, principal *signedPrincipal, hop *hopState, maxBody int64) {
	bp := getBuf()
	defer putBuf(bp)
	hop.trace.inject(ctx)
	out := outRequest{host: p.host, principal: principal, trace: &hop.trace}
	out.fields, out.listed, out.requestID = hop.fields.list, hop.fields.listed, hop.requestID

	length := r.ContentLength
	buf := appendRequestHead((*bp)[:0], r, out, length)
	inline := length == 0
	if length > 0 && length <= inlineBodyMax {
		var err error
		if buf, err = readInline(buf, r.Body, length); err != nil {
			p.fail(ctx, w, r, err)
			return
		}
		inline = true
	}
	if length < 0 {
		// Chunked: the limit trips while streaming.
		r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	}
	*bp = buf[:0] // keep a grown buffer for the next request
	for attempt := 0; ; attempt++ {
		c, err := p.connection(ctx, attempt, hop.start)
		if err != nil {
			p.fail(ctx, w, r, err)
			return
		}
		retry, err := p.exchange(ctx, c, w, r, buf, inline, hop)
		if err == nil {
			return
		}
		// A reused connection the service closed just as we sent is retried
		// once on a new one, when the request can be sent again in full.
		if !(retry && inline && attempt == 0) {
			p.fail(ctx, w, r, err)
			return
		}
	}
}

// connection is a pooled connection, or for a retry a new one: the pool
// may hold more connections the service has closed.
func (p *serviceProxy) connection(ctx context.Context, attempt int, now time.Time) (*upConn, error) {
	if attempt == 0 {
		return p.pool.get(ctx, now)
	}
	return p.pool.dial(ctx)
}

// exchange sends one request on c and copies the answer to w. It returns
// whether a failure may be retried (nothing was answered on a reused
// connection). Once the answer's head is written to the client, failures
// can only abort the client's connection.
func (p *serviceProxy) exchange(ctx context.Context, c *upConn, w http.ResponseWriter, r *http.Request, head []byte, inline bool, hop *hopState) (bool, error) {
	stop := abortOnCancel(ctx, c)
	healthy := false
	defer func() {
		if stop() && healthy {
			p.pool.put(c, hop.start)
		} else {
			_ = c.Close()
		}
	}()
	if inline {
		// Written by the answer's first read, in the same wait.
		if err := c.src.queue(head, c.br.Buffered()); err != nil {
			return c.reused, err
		}
	} else {
		if _, err := c.Write(head); err != nil {
			return c.reused, err
		}
		if err := streamBody(c, r.Body, r.ContentLength < 0); err != nil {
			return false, err
		}
	}
	a, raw, err := readAnswer(c.br, w, head, hop.vals[:0])
	if werr := c.src.takeWriteErr(); werr != nil {
		clear(w.Header())
		return c.reused, werr
	}
	if err != nil || a.status == http.StatusSwitchingProtocols {
		clear(w.Header())
		if err == nil {
			err = errBadAnswer
		}
		return c.reused && errors.Is(err, errNoResponse), err
	}
	writeAnswerHead(w, &a, raw, hop.requestID)
	rh := a.respHead
	if !bodyAllowed(r.Method, rh.status) {
		healthy = rh.keepAlive
		return false, nil
	}
	clean, err := copyAnswerBody(w, c.br, rh)
	if err != nil {
		if errors.Is(err, errClientGone) {
			return false, nil // nobody left to tell
		}
		// The client already has the head: abort its connection so a
		// truncated body cannot pass for a whole one.
		p.logger.WarnContext(ctx, "service answer broke off", "service", p.name, "error", err)
		panic(http.ErrAbortHandler)
	}
	healthy = clean && rh.keepAlive
	if !rh.chunked && rh.contentLength >= 0 {
		// A sized answer would otherwise wait in the inbound server's
		// buffer until the handler returns, behind the request's
		// bookkeeping (pool, span, metric, access log), which the client
		// need not wait for. It is the same single write either way.
		flush(w)
	}
	return false, nil
}

// abortOnCancel fails c's blocked reads and writes once ctx is cancelled
// (the client hung up, with net/http's background read). Its stop reports
// whether that had not happened. A context that cannot be cancelled (the
// lean inbound server's) costs nothing.
func abortOnCancel(ctx context.Context, c net.Conn) (stop func() bool) {
	if ctx.Done() == nil {
		return notCancelled
	}
	return context.AfterFunc(ctx, func() { _ = c.SetDeadline(aLongTimeAgo) })
}

func notCancelled() bool { return true }

func bodyAllowed(method string, status int) bool {
	return method != http.MethodHead && status != http.StatusNoContent && status != http.StatusNotModified && status >= 200
}

// fail answers a request the service never answered.
func (p *serviceProxy) fail(ctx context.Context, w http.ResponseWriter, r *http.Request, err error) {
	var (
		tooBig  *http.MaxBytesError
		badBody bodyError
	)
	switch {
	case errors.As(err, &tooBig):
		api.WriteError(ctx, w, bodyTooLarge(tooBig.Limit))
	case ctx.Err() != nil || errors.As(err, &badBody):
		// The client left or broke off its body; the answer is for the
		// record only.
		p.logger.DebugContext(ctx, "client gone before the service answered", "service", p.name, "error", err)
		api.WriteError(ctx, w, p.unavailable)
	default:
		p.logger.WarnContext(ctx, "service unreachable", "service", p.name, "path", r.URL.Path, "error", err)
		api.WriteError(ctx, w, p.unavailable)
	}
}

func bodyTooLarge(limit int64) *api.Error {
	return api.Errorf(api.InvalidArgument, "request body is larger than %d bytes", limit)
}

// close drops the idle upstream connections.
func (p *serviceProxy) close() { p.pool.close() }
