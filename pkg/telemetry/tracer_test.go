package telemetry

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"go.opentelemetry.io/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// setupSampled installs telemetry exporting to a sink, sampled by sampler
// (OTEL_TRACES_SAMPLER) with arg.
func setupSampled(t *testing.T, sampler, arg string) {
	t.Helper()
	restoreGlobals(t)
	sink := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	t.Cleanup(sink.Close)
	t.Setenv(EndpointEnv, sink.URL)
	t.Setenv("OTEL_TRACES_SAMPLER", sampler)
	t.Setenv("OTEL_TRACES_SAMPLER_ARG", arg)
	shutdown, err := Setup(context.Background(), Service{Name: "svc-test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = shutdown(context.Background()) })
}

// setupUnexported installs telemetry without an OTLP endpoint.
func setupUnexported(t *testing.T) {
	t.Helper()
	restoreGlobals(t)
	t.Setenv(EndpointEnv, "")
	shutdown, err := Setup(context.Background(), Service{Name: "svc-test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = shutdown(context.Background()) })
}

func remoteParent(flags trace.TraceFlags, state string) context.Context {
	ts, _ := trace.ParseTraceState(state)
	return trace.ContextWithRemoteSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{
		TraceID:    trace.TraceID{0x4b, 0xf9, 0x2f, 0x35, 0x77, 0xb3, 0x4d, 0xa6, 0xa3, 0xce, 0x92, 0x9d, 0x0e, 0x0e, 0x47, 0x36},
		SpanID:     trace.SpanID{0x00, 0xf0, 0x67, 0xaa, 0x0b, 0xa9, 0x02, 0xb7},
		TraceFlags: flags, TraceState: ts, Remote: true,
	}))
}

// Under a parent, a span Tracer starts is the SDK's in every field but its
// (random) span id: recording or not, trace id, flags, tracestate.
func TestTracerSpanUnderParentIsTheSDKs(t *testing.T) {
	setupSampled(t, "parentbased_traceidratio", "0.5")
	tr, sdk := NewTracer("t"), otel.Tracer("t")
	parents := map[string]context.Context{
		"sampled":           remoteParent(trace.FlagsSampled, "vendor=a1"),
		"unsampled":         remoteParent(0, "vendor=a1"),
		"unsampled, random": remoteParent(trace.FlagsRandom, ""),
	}
	for name, parent := range parents {
		var store NonRecordingSpan
		ctx, got := tr.Start(parent, "op", trace.SpanKindServer, &store)
		_, want := sdk.Start(parent, "op", trace.WithSpanKind(trace.SpanKindServer))
		g, w := got.SpanContext(), want.SpanContext()
		if got.IsRecording() != want.IsRecording() || g.TraceID() != w.TraceID() ||
			g.TraceFlags() != w.TraceFlags() || g.TraceState().String() != w.TraceState().String() {
			t.Errorf("%s: Tracer's span %v recording=%v, SDK's %v recording=%v", name, g, got.IsRecording(), w, want.IsRecording())
		}
		if !g.SpanID().IsValid() || g.SpanID() == trace.SpanContextFromContext(parent).SpanID() || g.IsRemote() {
			t.Errorf("%s: span id %s is not a new local one", name, g.SpanID())
		}
		if !trace.SpanContextFromContext(ctx).Equal(g) {
			t.Errorf("%s: the returned context does not hold the span", name)
		}
		got.End()
		want.End()
	}
}

// A root span is kept exactly when the SDK's ratio sampler keeps its trace
// id, and at the ratio: the decision made before the SDK and the SDK's own
// agree, because the SDK gets the ids the decision was made on (were it to
// draw its own, only half the spans kept before would be kept again).
func TestTracerRootDecisionIsTheSamplers(t *testing.T) {
	setupSampled(t, "parentbased_traceidratio", "0.5")
	tr, ratio := NewTracer("t"), sdktrace.TraceIDRatioBased(0.5)
	kept, dropped := 0, 0
	for range 1000 {
		var store NonRecordingSpan
		_, span := tr.Start(context.Background(), "op", trace.SpanKindServer, &store)
		sc := span.SpanContext()
		want := ratio.ShouldSample(sdktrace.SamplingParameters{TraceID: sc.TraceID()}).Decision == sdktrace.RecordAndSample
		if span.IsRecording() != want || sc.IsSampled() != want || !sc.IsValid() {
			t.Fatalf("span %v recording=%v, the ratio sampler keeps its trace id: %v", sc, span.IsRecording(), want)
		}
		if want {
			kept++
		} else {
			dropped++
		}
		span.End()
	}
	// 500 expected, standard deviation 16: outside 400..600 is not chance.
	if kept < 400 || kept > 600 {
		t.Fatalf("kept %d, dropped %d of 1000 at ratio 0.5", kept, dropped)
	}
}

// The ids handed to the SDK serve one span only: a child started from the
// returned context gets a span id of its own.
func TestTracerIDsServeOneSpan(t *testing.T) {
	setupSampled(t, "always_on", "")
	var store NonRecordingSpan
	ctx, parent := NewTracer("t").Start(context.Background(), "op", trace.SpanKindServer, &store)
	_, child := otel.Tracer("t").Start(ctx, "child")
	p, c := parent.SpanContext(), child.SpanContext()
	if !parent.IsRecording() || c.TraceID() != p.TraceID() || c.SpanID() == p.SpanID() {
		t.Fatalf("parent %v (recording %v), child %v", p, parent.IsRecording(), c)
	}
	if ro, ok := child.(sdktrace.ReadOnlySpan); !ok || ro.Parent().SpanID() != p.SpanID() {
		t.Fatalf("child's parent is not the span Tracer started")
	}
}

// Without an exporter nothing is recorded, yet every span has ids (logs
// name the trace), as with the SDK's NeverSample.
func TestTracerWithoutExportMakesIDs(t *testing.T) {
	setupUnexported(t)
	var store NonRecordingSpan
	_, span := NewTracer("t").Start(context.Background(), "op", trace.SpanKindServer, &store)
	if span.IsRecording() || !span.SpanContext().IsValid() || span.SpanContext().IsSampled() {
		t.Fatalf("span %v recording=%v", span.SpanContext(), span.IsRecording())
	}
	if span.TracerProvider() == nil {
		t.Fatal("no tracer provider")
	}
}

// The sampler read from the environment is the one the SDK would build,
// and a value the SDK reports as wrong is left to the SDK.
func TestSamplerFromEnv(t *testing.T) {
	cases := []struct{ name, arg, want string }{
		{"", "", sdktrace.ParentBased(sdktrace.AlwaysSample()).Description()},
		{" ParentBased_TraceIDRatio ", " 0.25 ", sdktrace.ParentBased(sdktrace.TraceIDRatioBased(0.25)).Description()},
		{"traceidratio", "", sdktrace.TraceIDRatioBased(1).Description()},
		{"always_off", "", sdktrace.NeverSample().Description()},
		{"parentbased_always_off", "", sdktrace.ParentBased(sdktrace.NeverSample()).Description()},
		{"traceidratio", "1.5", ""},
		{"traceidratio", "x", ""},
		{"jaeger_remote", "", ""},
	}
	for _, c := range cases {
		t.Setenv("OTEL_TRACES_SAMPLER", c.name)
		t.Setenv("OTEL_TRACES_SAMPLER_ARG", c.arg)
		got := ""
		if s := samplerFromEnv(); s != nil {
			got = s.Description()
		}
		if got != c.want {
			t.Errorf("%q %q: %q, want %q", c.name, c.arg, got, c.want)
		}
	}
}
