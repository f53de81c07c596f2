package gateway

import (
	"context"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/baggage"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// The trace fields written into the head are what telemetry.Setup's
// propagator (TraceContext + Baggage) injects, name, value and order.
func TestTraceHeadersMatchPropagator(t *testing.T) {
	t.Parallel()
	state, err := trace.ParseTraceState("vendor=a1,other=b2")
	if err != nil {
		t.Fatal(err)
	}
	member, _ := baggage.NewMember("tenant", "t1")
	bag, _ := baggage.New(member)
	sc := func(flags trace.TraceFlags, ts trace.TraceState) trace.SpanContext {
		return trace.NewSpanContext(trace.SpanContextConfig{
			TraceID: trace.TraceID{0x4b, 0xf9, 0x2f, 0x35, 0x77, 0xb3, 0x4d, 0xa6, 0xa3, 0xce, 0x92, 0x9d, 0x0e, 0x0e, 0x47, 0x36},
			SpanID:  trace.SpanID{0x00, 0xf0, 0x67, 0xaa, 0x0b, 0xa9, 0x02, 0xb7}, TraceFlags: flags, TraceState: ts,
		})
	}
	cases := map[string]context.Context{
		"none":              context.Background(),
		"unsampled":         trace.ContextWithSpanContext(context.Background(), sc(0, trace.TraceState{})),
		"sampled":           trace.ContextWithSpanContext(context.Background(), sc(trace.FlagsSampled, trace.TraceState{})),
		"flags beyond spec": trace.ContextWithSpanContext(context.Background(), sc(0xff, trace.TraceState{})),
		"tracestate":        trace.ContextWithSpanContext(context.Background(), sc(trace.FlagsSampled|trace.FlagsRandom, state)),
		"baggage only":      baggage.ContextWithBaggage(context.Background(), bag),
		"all": baggage.ContextWithBaggage(
			trace.ContextWithSpanContext(context.Background(), sc(trace.FlagsSampled, state)), bag),
	}
	prop := propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})
	for name, ctx := range cases {
		var want strings.Builder
		carrier := orderedCarrier{b: &want}
		prop.Inject(ctx, carrier)
		var th traceHeaders
		th.inject(ctx)
		if got := string(th.append(nil)); got != want.String() {
			t.Errorf("%s: wrote\n%q\npropagator\n%q", name, got, want.String())
		}
		for _, k := range []string{"Traceparent", "Tracestate", "Baggage"} {
			if th.has(k) != strings.Contains(want.String(), strings.ToLower(k)+":") {
				t.Errorf("%s: has(%s) = %v", name, k, th.has(k))
			}
		}
	}
}

// orderedCarrier writes each field as a head line in the order set.
type orderedCarrier struct{ b *strings.Builder }

func (c orderedCarrier) Get(string) string { return "" }
func (c orderedCarrier) Keys() []string    { return nil }
func (c orderedCarrier) Set(k, v string)   { c.b.WriteString(k + ": " + v + "\r\n") }
