package gateway

import (
	"context"
	"encoding/hex"

	"go.opentelemetry.io/otel/baggage"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/opencollab/backend/gateway/internal/httpfield"
)

// traceHeaders are the W3C trace context and baggage fields sent to a
// service: what telemetry.Setup's propagator (TraceContext + Baggage)
// would inject, written straight into the request head. The propagator
// builds the traceparent as a new string on every request; here it is
// hex-encoded into the head's buffer, and baggage (rarely present) still
// goes through the propagator.
type traceHeaders struct {
	parent  trace.SpanContext // valid: a traceparent is sent
	state   string
	baggage string
}

// inject takes the trace context and baggage of ctx, as
// propagation.TraceContext and propagation.Baggage would.
func (t *traceHeaders) inject(ctx context.Context) {
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		t.parent = sc
		t.state = sc.TraceState().String()
	}
	if baggage.FromContext(ctx).Len() > 0 {
		propagation.Baggage{}.Inject(ctx, t)
	}
}

// Get, Keys and Set make traceHeaders the Baggage propagator's carrier.
func (t *traceHeaders) Get(string) string { return "" }
func (t *traceHeaders) Keys() []string    { return nil }
func (t *traceHeaders) Set(k, v string) {
	if k == "baggage" {
		t.baggage = v
	}
}

// has reports whether the gateway sends its own value of the canonical
// header k; the client's value is then dropped.
func (t *traceHeaders) has(k string) bool {
	switch k {
	case "Traceparent":
		return t.parent.IsValid()
	case "Tracestate":
		return t.state != ""
	case "Baggage":
		return t.baggage != ""
	}
	return false
}

// append writes the fields in the propagator's order and spelling.
func (t *traceHeaders) append(b []byte) []byte {
	if !t.parent.IsValid() {
		return appendBaggage(b, t.baggage)
	}
	if t.state != "" {
		b = httpfield.Append(b, "tracestate", t.state)
	}
	b = appendTraceparent(b, t.parent)
	return appendBaggage(b, t.baggage)
}

func appendBaggage(b []byte, v string) []byte {
	if v == "" {
		return b
	}
	return httpfield.Append(b, "baggage", v)
}

// appendTraceparent writes "traceparent: 00-<trace id>-<span id>-<flags>",
// keeping only the flags the spec defines (sampled and random), as
// propagation.TraceContext does.
func appendTraceparent(b []byte, sc trace.SpanContext) []byte {
	tid, sid := sc.TraceID(), sc.SpanID()
	flags := [1]byte{byte(sc.TraceFlags() & (trace.FlagsSampled | trace.FlagsRandom))}
	b = append(b, "traceparent: 00-"...)
	b = appendHex(b, tid[:])
	b = append(b, '-')
	b = appendHex(b, sid[:])
	b = append(b, '-')
	b = hex.AppendEncode(b, flags[:])
	return append(b, "\r\n"...)
}
