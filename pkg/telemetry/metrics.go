package telemetry

import (
	"context"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

const instrumentationName = "github.com/opencollab/backend/pkg/telemetry"

// instruments are the metrics every service may record. Names follow the
// OpenTelemetry conventions; Prometheus sees them as
// http_server_request_duration_seconds, events_consumer_lag_seconds,
// webhook_deliveries_total and webhook_delivery_duration_seconds.
type instruments struct {
	requests   metric.Float64Histogram
	eventLag   metric.Float64Histogram
	deliveries metric.Int64Counter
	delivery   metric.Float64Histogram
}

// Buckets in seconds: requests are milliseconds, lag and deliveries can
// take seconds.
var (
	requestBuckets = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}
	slowBuckets    = []float64{0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300}
)

func newInstruments(m metric.Meter) (*instruments, error) {
	var in instruments
	var errs [4]error
	in.requests, errs[0] = m.Float64Histogram("http.server.request.duration", metric.WithUnit("s"),
		metric.WithDescription("Duration of HTTP requests served, by route, method and status code."),
		metric.WithExplicitBucketBoundaries(requestBuckets...))
	in.eventLag, errs[1] = m.Float64Histogram("events.consumer.lag", metric.WithUnit("s"),
		metric.WithDescription("Time from an event's publication to its handling by a consumer group."),
		metric.WithExplicitBucketBoundaries(slowBuckets...))
	in.deliveries, errs[2] = m.Int64Counter("webhook.deliveries",
		metric.WithDescription("Webhook delivery attempts, by outcome."))
	in.delivery, errs[3] = m.Float64Histogram("webhook.delivery.duration", metric.WithUnit("s"),
		metric.WithDescription("Duration of webhook delivery requests, by outcome."),
		metric.WithExplicitBucketBoundaries(slowBuckets...))
	for _, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("telemetry: instruments: %w", err)
		}
	}
	return &in, nil
}

// ObserveRequest records one served request (rate, errors and duration per
// route). route is the route template, never a raw path with ids in it.
func ObserveRequest(ctx context.Context, method, route string, status int, d time.Duration, extra ...attribute.KeyValue) {
	ObserveRequestAs(ctx, NewRequestSeries(method, route, status, extra...), d)
}

// RequestSeries is the attribute set of one (method, route, status)
// series, built once. Building it sorts and hashes the attributes, which
// costs more than recording the value: a caller on every request keeps one
// per series it sees.
type RequestSeries struct{ opts []metric.RecordOption }

// NewRequestSeries builds the series ObserveRequest records under.
func NewRequestSeries(method, route string, status int, extra ...attribute.KeyValue) RequestSeries {
	attrs := append([]attribute.KeyValue{
		attribute.String("http.request.method", method),
		attribute.String("http.route", route),
		attribute.Int("http.response.status_code", status),
	}, extra...)
	// The option slice is kept too: passing it whole to Record saves the
	// variadic slice a single option would cost per call.
	return RequestSeries{opts: []metric.RecordOption{metric.WithAttributeSet(attribute.NewSet(attrs...))}}
}

// ObserveRequestAs records one served request in series s.
func ObserveRequestAs(ctx context.Context, s RequestSeries, d time.Duration) {
	For(ctx).metrics.requests.Record(ctx, d.Seconds(), s.opts...)
}

// ObserveEventLag records how long an event waited in stream before group
// handled it.
func ObserveEventLag(ctx context.Context, stream, group string, lag time.Duration) {
	if lag < 0 {
		lag = 0 // clocks of publisher and consumer hosts differ slightly
	}
	For(ctx).metrics.eventLag.Record(ctx, lag.Seconds(), metric.WithAttributes(
		attribute.String("messaging.destination.name", stream),
		attribute.String("messaging.consumer.group.name", group),
	))
}

// Webhook delivery outcomes.
const (
	DeliverySucceeded = "succeeded" // the endpoint answered 2xx
	DeliveryRejected  = "rejected"  // the endpoint answered another status
	DeliveryError     = "error"     // no answer: refused, timed out, unreachable
)

// ObserveWebhookDelivery records one delivery attempt's outcome and, when a
// request was made, its duration.
func ObserveWebhookDelivery(ctx context.Context, outcome string, d time.Duration) {
	attrs := metric.WithAttributes(attribute.String("outcome", outcome))
	in := For(ctx).metrics
	in.deliveries.Add(ctx, 1, attrs)
	if d > 0 {
		in.delivery.Record(ctx, d.Seconds(), attrs)
	}
}
