package telemetry

import (
	"context"
	"sync"

	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/embedded"
)

// routingProvider is the global tracer provider: each span goes to the
// provider of the service its context belongs to, so instrumentation made
// once (the Redis and MongoDB clients, otelhttp) reports under the right
// service in a process hosting several.
type routingProvider struct{ embedded.TracerProvider }

func (routingProvider) Tracer(name string, opts ...trace.TracerOption) trace.Tracer {
	return &routingTracer{name: name, opts: opts}
}

type routingTracer struct {
	embedded.Tracer
	name    string
	opts    []trace.TracerOption
	tracers sync.Map // *Provider -> trace.Tracer
}

func (t *routingTracer) Start(ctx context.Context, spanName string, opts ...trace.SpanStartOption) (context.Context, trace.Span) {
	p := For(ctx)
	tr, ok := t.tracers.Load(p)
	if !ok {
		tr, _ = t.tracers.LoadOrStore(p, p.traces.Tracer(t.name, t.opts...))
	}
	return tr.(trace.Tracer).Start(ctx, spanName, opts...)
}
