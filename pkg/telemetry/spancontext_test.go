package telemetry

import (
	"context"
	"errors"
	"testing"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/trace"
)

type testKey struct{}

// The context Start returns with a dropped span is its parent's (values,
// deadline, cancellation, also for contexts derived from it) with the span
// under the trace API's key, as trace.ContextWithSpan makes it.
func TestDroppedSpanContextIsTheParentsWithTheSpan(t *testing.T) {
	setupSampled(t, "parentbased_traceidratio", "0")
	deadline := time.Now().Add(time.Hour)
	parent, cancel := context.WithDeadline(context.WithValue(context.Background(), testKey{}, "v"), deadline)
	var store NonRecordingSpan
	ctx, span := NewTracer("t").Start(parent, "op", trace.SpanKindServer, &store)
	if span.IsRecording() {
		t.Fatal("a span at ratio 0 is recording")
	}
	if got := trace.SpanFromContext(ctx); got != span {
		t.Fatalf("SpanFromContext = %v, want the started span", got)
	}
	if ctx.Value(testKey{}) != "v" {
		t.Fatal("the parent's value is lost")
	}
	if d, ok := ctx.Deadline(); !ok || !d.Equal(deadline) {
		t.Fatalf("deadline %v %v, want %v", d, ok, deadline)
	}
	_, child := otel.Tracer("t").Start(ctx, "child")
	if child.SpanContext().TraceID() != span.SpanContext().TraceID() {
		t.Fatal("a child span is not in the dropped span's trace")
	}
	derived, stop := context.WithCancel(ctx)
	defer stop()
	cancel()
	for _, c := range []context.Context{ctx, derived} {
		select {
		case <-c.Done():
		case <-time.After(5 * time.Second):
			t.Fatal("cancelling the parent did not reach the context")
		}
		if !errors.Is(c.Err(), context.Canceled) {
			t.Fatalf("Err = %v", c.Err())
		}
	}
}

// A dropped span and its context live in the caller's memory: starting one
// allocates nothing (trace.ContextWithSpan allocated one context each).
func TestTracerStartOfADroppedSpanAllocatesNothing(t *testing.T) {
	setupSampled(t, "parentbased_traceidratio", "0")
	tr := NewTracer("t")
	parent := context.Background()
	var store NonRecordingSpan
	allocs := testing.AllocsPerRun(100, func() {
		_, span := tr.Start(parent, "op", trace.SpanKindServer, &store)
		span.End()
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per dropped span", allocs)
	}
}
