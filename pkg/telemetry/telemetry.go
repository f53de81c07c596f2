// Package telemetry wires OpenTelemetry tracing for a service process.
package telemetry

import (
	"context"
	"fmt"
	"os"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
)

// EndpointEnv switches exporting on; the exporter reads it (and the other
// standard OTEL_EXPORTER_OTLP_* variables) itself.
const EndpointEnv = "OTEL_EXPORTER_OTLP_ENDPOINT"

// Setup installs W3C TraceContext + Baggage propagation and, when
// OTEL_EXPORTER_OTLP_ENDPOINT is set, an SDK tracer provider exporting over
// OTLP/HTTP. Without an endpoint the global no-op provider stays: spans cost
// nothing, yet incoming trace ids still flow to logs and outgoing calls.
// The returned shutdown flushes pending spans; call it on exit.
func Setup(ctx context.Context, service string) (shutdown func(context.Context) error, err error) {
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(
		propagation.TraceContext{}, propagation.Baggage{},
	))
	if os.Getenv(EndpointEnv) == "" {
		return func(context.Context) error { return nil }, nil
	}
	tp, err := newProvider(ctx, service)
	if err != nil {
		return nil, err
	}
	otel.SetTracerProvider(tp)
	return tp.Shutdown, nil
}

func newProvider(ctx context.Context, service string) (*sdktrace.TracerProvider, error) {
	exp, err := otlptracehttp.New(ctx)
	if err != nil {
		return nil, fmt.Errorf("telemetry: otlp exporter: %w", err)
	}
	// Later options win, so OTEL_SERVICE_NAME / OTEL_RESOURCE_ATTRIBUTES can
	// override the built-in name. No schema URL on our attribute, so merging
	// with the SDK's detectors cannot fail on a semconv version mismatch.
	res, err := resource.New(ctx,
		resource.WithAttributes(semconv.ServiceName(service)),
		resource.WithTelemetrySDK(),
		resource.WithHost(),
		resource.WithFromEnv(),
	)
	if err != nil {
		return nil, fmt.Errorf("telemetry: resource: %w", err)
	}
	return sdktrace.NewTracerProvider(
		sdktrace.WithBatcher(exp),
		sdktrace.WithResource(res),
	), nil
}
