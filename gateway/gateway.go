// Package gateway is the public entry point of the system: it authenticates
// customer backends (API key + auth token, or the operator token), applies
// the per-API-key rate limit and body limit, and streams each request to
// the service owning its path prefix, signed with the internal principal.
// Everything it answers itself is in the spec's error envelope.
//
// It is a plain http.Handler on purpose: it sits on every request, so the
// path from accept to upstream avoids routers, re-encoding and per-request
// allocations wherever it can.
package gateway

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"

	"github.com/redis/go-redis/v9"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/trace"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/svcclient"
	"github.com/opencollab/backend/pkg/telemetry"
)

// Deps are the gateway's clients.
type Deps struct {
	Redis  *redis.Client
	Logger *slog.Logger
	// ContentRealtime is the content service's HTTP handler when it runs
	// in this process (deploy/local with one content replica). Realtime
	// upgrades are then handed to it with the client's connection, which
	// it takes over itself, instead of being tunnelled to CONTENT_URL: no
	// second connection, no relay. Nil: the tunnel.
	ContentRealtime http.Handler
}

// Gateway routes, authenticates and proxies public requests.
type Gateway struct {
	logger   *slog.Logger
	rdb      *redis.Client
	router   *router
	creds    *credentialStore
	limiter  *rateLimiter // nil: no rate limit
	operator *operatorAuth
	// realtimeAuth signs the principal of realtime WebSocket upgrades.
	realtimeAuth *fixedPrincipal
	tunnels      *tunnels
	ids          *requestIDs
	maxBody      int64
	tracer       trace.Tracer
	spanOpts     []trace.SpanStartOption
	// serverSpans starts the request's span, deciding its sampling
	// before the SDK is involved.
	serverSpans *telemetry.Tracer
	series      seriesCache
	// stopKeeper ends the credential keeper (nil: none runs); keeperDone
	// is closed when it has.
	stopKeeper context.CancelFunc
	keeperDone chan struct{}

	errTooBig *api.Error
}

// tracerName is the instrumentation scope of the gateway's spans.
const tracerName = "github.com/opencollab/backend/gateway"

var errRateLimited = api.Errorf(api.ResourceExhausted, "rate limit exceeded for this API key; retry later")

// New builds the gateway. It opens no connection: upstream connections
// are dialled on first use and then kept. Its one goroutine is the
// credential keeper (AUTH_CACHE_KEEP_WARM). Close it after the server has
// drained.
func New(cfg Config, deps Deps) (*Gateway, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if deps.Redis == nil {
		return nil, errors.New("gateway: Deps.Redis is required")
	}
	logger := deps.Logger
	if logger == nil {
		logger = slog.Default()
	}
	signer := internalauth.NewSigner(cfg.InternalSecret)
	proxies := make(map[service]*serviceProxy)
	for name, raw := range cfg.serviceURLs() {
		if raw == "" {
			continue
		}
		target, err := url.Parse(raw)
		if err != nil {
			return nil, err
		}
		proxies[name] = newServiceProxy(name, target, logger)
	}
	workspace := svcclient.New(string(svcWorkspace), cfg.WorkspaceURL, signer)
	guard := newRedisGuard()
	g := &Gateway{
		logger:       logger,
		rdb:          deps.Redis,
		router:       newRouter(proxies),
		creds:        newCredentialStore(deps.Redis, guard, workspace, signer, cfg.AuthCacheTTL, logger),
		operator:     newOperatorAuth(cfg.OperatorToken, signer),
		realtimeAuth: newFixedPrincipal(signer, internalauth.RealtimeUpgrade),
		tunnels:      newTunnels(cfg.MaxRealtimeTunnels),
		ids:          newRequestIDs(),
		maxBody:      cfg.MaxBodyBytes,
		tracer:       otel.Tracer(tracerName),
		spanOpts:     []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindServer)},
		serverSpans:  telemetry.NewTracer(tracerName),
		errTooBig:    bodyTooLarge(cfg.MaxBodyBytes),
	}
	g.router.handOver(svcContent, deps.ContentRealtime)
	if cfg.RateLimitPerSecond > 0 {
		g.limiter = newRateLimiter(deps.Redis, guard, cfg.RateLimitPerSecond, logger)
	}
	g.startKeeper(cfg.AuthCacheKeepWarm)
	return g, nil
}

// Close ends what outlives requests: it stops the credential keeper,
// closes every WebSocket tunnel (waiting for their copies to stop), refuses
// new ones and drops the idle upstream connections. Call it after the HTTP
// server has drained.
func (g *Gateway) Close() {
	if g.stopKeeper != nil {
		g.stopKeeper()
		<-g.keeperDone
	}
	g.tunnels.close()
	for _, rt := range g.router.routes {
		if rt.proxy != nil {
			rt.proxy.close()
		}
	}
}

// Handler is the gateway's whole HTTP surface.
func (g *Gateway) Handler() http.Handler { return http.HandlerFunc(g.serveHTTP) }

func (g *Gateway) serveHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/healthz":
		g.probe(w, r, nil)
		return
	case "/readyz":
		g.probe(w, r, g.ready)
		return
	case "/openapi.json":
		serveOpenAPI(w, r)
		return
	case "/docs":
		serveDocs(w, r)
		return
	}
	c, ctx, span := g.startRequest(w, r)
	// The access log is Debug: at Info it would cost more than the proxy.
	if g.logger.Enabled(ctx, slog.LevelDebug) {
		defer c.rec.log(ctx, g.logger, r, &c.hop.requestID)
	}
	rt := g.handle(ctx, c, r)
	g.finishRequest(ctx, c, r, span, rt)
}

// handle runs the checks in order, cheapest and least privileged first:
// route, method, credentials, rate limit, body size, deployment. It returns
// the route taken, nil when none matched. ctx carries the request's span.
func (g *Gateway) handle(ctx context.Context, c *call, r *http.Request) *route {
	w, path := &c.rec, r.URL.Path
	fields := &c.hop.fields
	id := g.ids.ensure(fields, &c.id)
	c.hop.requestID = id
	span := trace.SpanFromContext(ctx)
	if r.Method == http.MethodGet {
		if rt := g.router.matchRealtime(path); rt != nil {
			annotate(span, rt, nil)
			fields.fillHeader(id) // the upgrade's code reads r.Header
			g.realtime(ctx, w, r, id, rt)
			return rt
		}
	}
	rt := g.router.match(path)
	if rt == nil {
		g.reject(ctx, w, r, id, api.Errorf(api.NotFound, "no operation at %s", path))
		return nil
	}
	if r.Method != http.MethodPost {
		g.reject(ctx, w, r, id, api.Errorf(api.InvalidArgument, "method %s is not allowed; every operation is POST", r.Method))
		return rt
	}
	var (
		principal *signedPrincipal
		apiKey    string
		err       error
	)
	if g.router.isOperator(path) {
		principal, err = g.operator.authenticate(fields)
	} else {
		principal, apiKey, err = authenticateWorkspace(ctx, g.creds, fields)
	}
	annotate(span, rt, principal)
	if err != nil {
		g.reject(ctx, w, r, id, err)
		return rt
	}
	if g.limiter != nil && apiKey != "" && !g.limiter.allow(ctx, apiKey) {
		g.reject(ctx, w, r, id, errRateLimited)
		return rt
	}
	if r.ContentLength > g.maxBody {
		g.reject(ctx, w, r, id, g.errTooBig)
		return rt
	}
	if rt.proxy == nil {
		g.reject(ctx, w, r, id, api.Errorf(api.Unavailable, "%s service is not deployed", rt.service))
		return rt
	}
	// A sized body over the limit was refused above; a chunked one is cut
	// off at the limit while it streams (INVALID_ARGUMENT).
	rt.proxy.serve(ctx, w, r, principal, &c.hop, g.maxBody)
	return rt
}

// reject answers with the error envelope. Client mistakes are Debug (a
// flood of bad requests must not flood the logs); our failures are Warn.
func (g *Gateway) reject(ctx context.Context, w http.ResponseWriter, r *http.Request, id string, err error) {
	apiErr, _ := api.AsError(err)
	level := slog.LevelDebug
	if apiErr.Status == api.Unavailable || apiErr.Status == api.Internal {
		level = slog.LevelWarn
	}
	if g.logger.Enabled(ctx, level) {
		g.logger.Log(ctx, level, "request refused", "status", apiErr.Status, "message", apiErr.Message,
			"method", r.Method, "path", r.URL.Path, "requestId", id)
	}
	w.Header()[internalauth.HeaderRequestID] = []string{id}
	api.WriteError(ctx, w, apiErr)
}

// ready reports whether Redis answers. /readyz only reports it: without
// Redis the gateway degrades (lookups go to svc-workspace, the rate limit
// holds per replica) but keeps serving.
func (g *Gateway) ready(ctx context.Context) error {
	return g.rdb.Ping(ctx).Err()
}

// inboundCarrier reads the client's trace headers for the propagator
// without canonicalising (allocating) their names on every request.
type inboundCarrier struct{ f *clientFields }

func (c inboundCarrier) key(k string) string {
	switch k {
	case "traceparent":
		return "Traceparent"
	case "tracestate":
		return "Tracestate"
	case "baggage":
		return "Baggage"
	}
	return http.CanonicalHeaderKey(k)
}

func (c inboundCarrier) Get(k string) string { return c.f.get(c.key(k)) }

func (c inboundCarrier) Values(k string) []string { return c.f.values(c.key(k)) }

// Set is never called: extraction only reads.
func (c inboundCarrier) Set(k, v string) {}

func (c inboundCarrier) Keys() []string {
	var keys []string
	if !c.f.listed {
		for k := range c.f.h {
			keys = append(keys, k)
		}
		return keys
	}
	for _, f := range c.f.list {
		keys = append(keys, f.Name)
	}
	return keys
}
