package telemetry

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	"go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
)

// current is the stack Setup installed last.
var current atomic.Pointer[stack]

// Provider is one service's telemetry: its tracer and meter providers, the
// Prometheus registry its /metrics serves and its instruments.
type Provider struct {
	Service  Service
	traces   *sdktrace.TracerProvider
	meters   *metric.MeterProvider
	registry *prometheus.Registry
	metrics  *instruments
	// sampler is the trace provider's, for Tracer's head decision; nil
	// when the SDK chose it (an OTEL_TRACES_SAMPLER it reports as wrong).
	sampler sdktrace.Sampler
}

func newProvider(ctx context.Context, s Service, export bool) (*Provider, error) {
	res, err := newResource(ctx, s)
	if err != nil {
		return nil, err
	}
	p := &Provider{Service: s, registry: prometheus.NewRegistry()}
	// service_name and service_version on every series: dashboards group by
	// them whatever the scrape job is called.
	prom, err := otelprom.New(otelprom.WithRegisterer(p.registry), otelprom.WithResourceAsConstantLabels(
		attribute.NewAllowKeysFilter(semconv.ServiceNameKey, semconv.ServiceVersionKey)))
	if err != nil {
		return nil, fmt.Errorf("telemetry: prometheus exporter: %w", err)
	}
	meterOpts := []metric.Option{metric.WithResource(res), metric.WithReader(prom)}
	// Without an exporter no span is recorded, yet every span gets ids:
	// logs name the trace even when nobody collects it.
	// With an exporter the SDK's sampler stands: ParentBased(AlwaysSample),
	// or what OTEL_TRACES_SAMPLER(_ARG) say, built here so Tracer can ask
	// the same sampler first; the ids generator hands the SDK the ids
	// Tracer decided on.
	traceOpts := []sdktrace.TracerProviderOption{sdktrace.WithResource(res), sdktrace.WithIDGenerator(idGenerator{})}
	if export {
		spans, err := otlptracehttp.New(ctx)
		if err != nil {
			return nil, fmt.Errorf("telemetry: otlp trace exporter: %w", err)
		}
		points, err := otlpmetrichttp.New(ctx)
		if err != nil {
			return nil, fmt.Errorf("telemetry: otlp metric exporter: %w", err)
		}
		traceOpts = append(traceOpts, sdktrace.WithBatcher(spans))
		if p.sampler = samplerFromEnv(); p.sampler != nil {
			traceOpts = append(traceOpts, sdktrace.WithSampler(p.sampler))
		}
		meterOpts = append(meterOpts, metric.WithReader(metric.NewPeriodicReader(points)))
	} else {
		p.sampler = sdktrace.NeverSample()
		traceOpts = append(traceOpts, sdktrace.WithSampler(p.sampler))
	}
	p.traces = sdktrace.NewTracerProvider(traceOpts...)
	p.meters = metric.NewMeterProvider(meterOpts...)
	if p.metrics, err = newInstruments(p.meters.Meter(instrumentationName)); err != nil {
		return nil, err
	}
	return p, nil
}

// newResource describes the service. The environment
// (OTEL_RESOURCE_ATTRIBUTES) adds attributes but cannot rename the service:
// in the one-process stack one name would cover all seven.
func newResource(ctx context.Context, s Service) (*resource.Resource, error) {
	attrs := []resource.Option{resource.WithFromEnv(), resource.WithTelemetrySDK(), resource.WithHost()}
	// No schema URL on our attributes, so merging with the SDK's detectors
	// cannot fail on a semconv version mismatch.
	own := resource.WithAttributes(semconv.ServiceName(s.Name), semconv.ServiceNamespace("opencollab"))
	if s.Version != "" {
		own = resource.WithAttributes(semconv.ServiceName(s.Name), semconv.ServiceNamespace("opencollab"),
			semconv.ServiceVersion(s.Version))
	}
	res, err := resource.New(ctx, append(attrs, own)...)
	if err != nil {
		return nil, fmt.Errorf("telemetry: resource: %w", err)
	}
	return res, nil
}

func (p *Provider) shutdown(ctx context.Context) error {
	return errors.Join(p.traces.Shutdown(ctx), p.meters.Shutdown(ctx))
}

// MetricsHandler serves, in the Prometheus text format, the metrics of the
// service the request's context belongs to.
func MetricsHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := For(r.Context())
		promhttp.HandlerFor(p.registry, promhttp.HandlerOpts{}).ServeHTTP(w, r)
	})
}
