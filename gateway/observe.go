package gateway

import (
	"net/http"
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

// startRequest opens the request's server span (a child of the client's
// traceparent, if any) before anything else runs, so every log line of the
// request carries its trace and span ids, and wraps w to learn the status.
func (g *Gateway) startRequest(w http.ResponseWriter, r *http.Request) (*statusRecorder, *http.Request, trace.Span) {
	ctx := otel.GetTextMapPropagator().Extract(r.Context(), inboundCarrier(r.Header))
	ctx, span := g.tracer.Start(ctx, r.Method, g.spanOpts...)
	if span.IsRecording() {
		span.SetAttributes(
			attribute.String("http.request.method", r.Method),
			attribute.String("url.path", r.URL.Path),
			attribute.String("url.scheme", scheme(r)),
			attribute.String("server.address", r.Host),
			attribute.String("network.protocol.version", protocolVersion(r)),
			attribute.String("user_agent.original", r.UserAgent()),
		)
	}
	return newStatusRecorder(w), r.WithContext(ctx), span
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
func (g *Gateway) finishRequest(rec *statusRecorder, r *http.Request, span trace.Span, rt *route) {
	defer span.End()
	status := rec.status
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
	telemetry.ObserveRequest(r.Context(), r.Method, route, status, time.Since(rec.start))
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
