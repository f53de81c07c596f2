package gateway

import (
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
)

// serviceProxy streams requests to one service. All of them share one
// Transport (pooled keep-alive connections) and one buffer pool.
type serviceProxy struct {
	name   service
	target *url.URL
	rp     *httputil.ReverseProxy
	logger *slog.Logger
	// unavailable is prebuilt: the message never changes.
	unavailable *api.Error
}

func newServiceProxy(name service, target *url.URL, transport http.RoundTripper, pool httputil.BufferPool, logger *slog.Logger) *serviceProxy {
	p := &serviceProxy{
		name: name, target: target, logger: logger,
		unavailable: api.Errorf(api.Unavailable, "%s service is unavailable", name),
	}
	p.rp = &httputil.ReverseProxy{
		Rewrite:        p.rewrite,
		Transport:      transport,
		BufferPool:     pool,
		ErrorHandler:   p.handleError,
		ModifyResponse: echoRequestID,
		ErrorLog:       slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	return p
}

// rewrite points the outgoing request at the service. Rewrite (unlike
// Director) has already dropped hop-by-hop and X-Forwarded-* headers; the
// path and body go through untouched.
func (p *serviceProxy) rewrite(pr *httputil.ProxyRequest) {
	pr.Out.URL.Scheme = p.target.Scheme
	pr.Out.URL.Host = p.target.Host
	pr.Out.Host = ""
	// In carries the context extracted from the client's traceparent (and
	// the gateway span when tracing is on); write it back for the service.
	otel.GetTextMapPropagator().Inject(pr.In.Context(), propagation.HeaderCarrier(pr.Out.Header))
}

// handleError answers a request the service never answered.
func (p *serviceProxy) handleError(w http.ResponseWriter, r *http.Request, err error) {
	ctx := r.Context()
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		api.WriteError(ctx, w, bodyTooLarge(tooBig.Limit))
	case ctx.Err() != nil:
		// The client left; the answer is for the record only.
		p.logger.DebugContext(ctx, "client gone before the service answered", "service", p.name)
		api.WriteError(ctx, w, p.unavailable)
	default:
		p.logger.WarnContext(ctx, "service unreachable", "service", p.name, "path", r.URL.Path, "error", err)
		api.WriteError(ctx, w, p.unavailable)
	}
}

// echoRequestID returns the request id to the client when the service did
// not set one itself.
func echoRequestID(resp *http.Response) error {
	if _, ok := resp.Header[internalauth.HeaderRequestID]; !ok && resp.Request != nil {
		if id := resp.Request.Header[internalauth.HeaderRequestID]; len(id) > 0 {
			resp.Header[internalauth.HeaderRequestID] = id
		}
	}
	return nil
}

func bodyTooLarge(limit int64) *api.Error {
	return api.Errorf(api.InvalidArgument, "request body is larger than %d bytes", limit)
}

// newTransport keeps many idle connections per service: at thousands of
// requests per second a small idle pool would dial (and leave TIME_WAIT
// sockets) on most requests. No compression: bodies pass through as sent.
func newTransport() *http.Transport {
	return &http.Transport{
		DialContext:           (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:          0, // no global cap; bounded per host
		MaxIdleConnsPerHost:   1024,
		IdleConnTimeout:       90 * time.Second,
		ExpectContinueTimeout: time.Second,
		DisableCompression:    true,
		ReadBufferSize:        16 << 10,
		WriteBufferSize:       16 << 10,
	}
}

// bufferPool recycles the proxy's copy buffers. Storing a []byte in a
// sync.Pool boxes its slice header (24 bytes), far cheaper than a fresh
// 32 KiB buffer per request.
type bufferPool struct{ pool sync.Pool }

const copyBufferSize = 32 << 10

func newBufferPool() *bufferPool {
	return &bufferPool{pool: sync.Pool{New: func() any { return make([]byte, copyBufferSize) }}}
}

func (b *bufferPool) Get() []byte { return b.pool.Get().([]byte) }

func (b *bufferPool) Put(buf []byte) {
	if cap(buf) == copyBufferSize {
		b.pool.Put(buf[:copyBufferSize])
	}
}
