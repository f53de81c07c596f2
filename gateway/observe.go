package gateway

import (
	"context"
	"maps"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/telemetry"
)

// Attributes of the gateway's server span beyond the HTTP conventions.
const (
	attrWorkspace = attribute.Key("opencollab.workspace.id")
	attrUpstream  = attribute.Key("opencollab.upstream.service")
)

// call is the gateway's own state of one request, allocated once so the
// hot path does not allocate its pieces one by one: the status recorder,
// the trace headers sent upstream, the request id the gateway made and the
// backing array of the answer's header values.
type call struct {
	rec statusRecorder
	hop hopState
	id  idSlot
	// span holds the request's span when the sampler drops it (most
	// requests): no allocation for it.
	span telemetry.NonRecordingSpan
}

// startRequest opens the request's server span (a child of the client's
// traceparent, if any) before anything else runs, so every log line of the
// request carries its trace and span ids, and wraps w to learn the status.
// The span's context is returned, not set on r: a request copy per call
// would be an allocation only the gateway's own code would read.
func (g *Gateway) startRequest(w http.ResponseWriter, r *http.Request) (*call, context.Context, trace.Span) {
	c := &call{rec: statusRecorder{ResponseWriter: w, start: time.Now()}}
	c.hop.start = c.rec.start
	c.hop.fields = newClientFields(w, r)
	ctx := otel.GetTextMapPropagator().Extract(r.Context(), inboundCarrier{&c.hop.fields})
	ctx, span := g.serverSpans.Start(ctx, r.Method, trace.SpanKindServer, &c.span)
	if span.IsRecording() {
		span.SetAttributes(
			attribute.String("http.request.method", r.Method),
			attribute.String("url.path", r.URL.Path),
			attribute.String("url.scheme", scheme(r)),
			attribute.String("server.address", r.Host),
			attribute.String("network.protocol.version", protocolVersion(r)),
			attribute.String("user_agent.original", c.hop.fields.get("User-Agent")),
		)
	}
	return c, ctx, span
}

// annotate adds what authentication and routing found out.
func annotate(span trace.Span, rt *route, principal *signedPrincipal) {
	if !span.IsRecording() {
		return
	}
	span.SetAttributes(attrUpstream.String(string(rt.service)))
	if principal != nil && len(principal.principal) > 0 {
		if ws, ok := internalauth.WorkspaceOf(principal.principal[0]); ok {
			span.SetAttributes(attrWorkspace.String(ws))
		}
	}
}

// finishRequest names the span after the route ("POST /v2/users/get"),
// records the status and the route's rate, error and duration metrics.
// Operations are exact paths, so a path the upstream knows is its own
// route; an unknown one (404) is reported as its prefix, so that scans of
// random paths cannot grow the label sets. A realtime tunnel is not
// measured: its duration is the session's.
func (g *Gateway) finishRequest(ctx context.Context, c *call, r *http.Request, span trace.Span, rt *route) {
	defer span.End()
	// One clock read for the metric and the access log (which runs after).
	c.rec.elapsed = time.Since(c.rec.start)
	status := c.rec.status
	if status == 0 {
		status = http.StatusSwitchingProtocols // hijacked for a tunnel
	}
	route := "unmatched"
	switch {
	case rt == nil:
	case rt.realtime || status == http.StatusNotFound:
		route = rt.prefix
	default:
		route = r.URL.Path
	}
	if span.IsRecording() {
		span.SetName(r.Method + " " + route)
		span.SetAttributes(attribute.String("http.route", route), attribute.Int("http.response.status_code", status))
		if status >= 500 {
			span.SetStatus(codes.Error, http.StatusText(status))
		}
	}
	if rt != nil && rt.realtime {
		return
	}
	telemetry.ObserveRequestAs(ctx, g.series.get(r.Method, route, status), c.rec.elapsed)
}

// maxSeries bounds the metric series kept built; the label sets are
// bounded by the routes, but a flood of odd methods or paths must not grow
// the cache (past the bound a series is built per request).
const maxSeries = 1024

// seriesCache keeps the request series seen. Readers load a map that is
// never written; a new series copies it.
type seriesCache struct {
	m  atomic.Pointer[map[seriesKey]telemetry.RequestSeries]
	mu sync.Mutex
}

type seriesKey struct {
	method, route string
	status        int
}

func (c *seriesCache) get(method, route string, status int) telemetry.RequestSeries {
	k := seriesKey{method, route, status}
	if m := c.m.Load(); m != nil {
		if s, ok := (*m)[k]; ok {
			return s
		}
	}
	s := telemetry.NewRequestSeries(method, route, status)
	c.mu.Lock()
	defer c.mu.Unlock()
	next := map[seriesKey]telemetry.RequestSeries{}
	if old := c.m.Load(); old != nil {
		if len(*old) >= maxSeries {
			return s
		}
		next = maps.Clone(*old)
	}
	next[k] = s
	c.m.Store(&next)
	return s
}

func scheme(r *http.Request) string {
	if r.TLS != nil {
		return "https"
	}
	return "http"
}

func protocolVersion(r *http.Request) string {
	switch r.ProtoMajor {
	case 2:
		return "2"
	case 3:
		return "3"
	}
	return "1.1"
}
