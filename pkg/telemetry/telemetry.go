// Package telemetry wires OpenTelemetry traces and metrics for the
// services of a process.
//
// A process hosts one service (a standalone binary) or all of them
// (deploy/local). Each service gets its own providers, so its spans and
// metrics carry its own service.name and service.version even when seven
// services share one process and one Redis or MongoDB client. The global
// tracer provider routes every span to the provider of the service named in
// the span's context (WithService); code that starts spans needs no
// telemetry handle, and the store clients built once serve every service.
package telemetry

import (
	"context"
	"errors"
	"os"
	"sync"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
)

// EndpointEnv switches exporting on; the OTLP exporters read it (and the
// other standard OTEL_EXPORTER_OTLP_* variables) themselves.
const EndpointEnv = "OTEL_EXPORTER_OTLP_ENDPOINT"

// Exporting reports whether spans are recorded and exported (EndpointEnv
// is set). Without it no span is ever recorded, so instrumentation whose
// only product is child spans (the MongoDB command monitor) can stay off.
func Exporting() bool { return os.Getenv(EndpointEnv) != "" }

// Service names a service in telemetry.
type Service struct {
	Name    string
	Version string
}

// Setup installs W3C TraceContext + Baggage propagation and one provider
// per service; the first service is the one of contexts that name none.
// Trace and span ids are always made, so logs can be joined to traces;
// spans are recorded and exported, with metrics, only when
// OTEL_EXPORTER_OTLP_ENDPOINT is set. Metrics are always served in the
// Prometheus format (MetricsHandler). The returned shutdown flushes what is
// pending; call it on exit.
func Setup(ctx context.Context, services ...Service) (shutdown func(context.Context) error, err error) {
	if len(services) == 0 {
		return nil, errors.New("telemetry: no service")
	}
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(
		propagation.TraceContext{}, propagation.Baggage{},
	))
	export := Exporting()
	st := &stack{byName: map[string]*Provider{}}
	for _, s := range services {
		if _, dup := st.byName[s.Name]; dup {
			continue
		}
		p, err := newProvider(ctx, s, export)
		if err != nil {
			_ = st.shutdown(ctx)
			return nil, err
		}
		st.byName[s.Name] = p
		if st.fallback == nil {
			st.fallback = p
		}
	}
	current.Store(st)
	otel.SetTracerProvider(routingProvider{})
	return st.shutdown, nil
}

// stack is the providers of the process.
type stack struct {
	byName   map[string]*Provider
	fallback *Provider
}

func (s *stack) shutdown(ctx context.Context) error {
	var errs []error
	for _, p := range s.byName {
		errs = append(errs, p.shutdown(ctx))
	}
	return errors.Join(errs...)
}

type serviceKey struct{}

// WithService marks ctx (and every context derived from it: requests served
// under it, background work started from it) as belonging to service.
func WithService(ctx context.Context, service string) context.Context {
	return context.WithValue(ctx, serviceKey{}, service)
}

// ServiceOf returns the service ctx was marked with, or "".
func ServiceOf(ctx context.Context) string {
	s, _ := ctx.Value(serviceKey{}).(string)
	return s
}

// For returns the provider of the service ctx belongs to; without Setup, a
// process-wide provider that records metrics and exports nothing.
func For(ctx context.Context) *Provider {
	st := current.Load()
	if st == nil {
		return unconfigured()
	}
	if p, ok := st.byName[ServiceOf(ctx)]; ok {
		return p
	}
	return st.fallback
}

var unconfigured = sync.OnceValue(func() *Provider {
	p, err := newProvider(context.Background(), Service{Name: "unknown"}, false)
	if err != nil {
		panic(err) // no exporter to fail: only a programming error gets here
	}
	return p
})
