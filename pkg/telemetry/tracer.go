package telemetry

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"sync/atomic"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/embedded"
)

// Tracer starts spans as the global tracer of its name does, for code that
// starts one on every request: it asks the service's sampler first, and a
// span the sampler drops (most of them, with a ratio sampler) never enters
// the SDK. Such a span has what the SDK would give it, and no more: new
// ids (the parent's trace id if there is a parent), the parent's flags
// without "sampled", the tracestate the sampler returns, nothing recorded.
// It lives in memory the caller provides (NonRecordingSpan), so it costs
// no allocation of its own. Spans the sampler keeps, and every span when
// the SDK's sampler is not known (see samplerFromEnv) or the global tracer
// provider is not Setup's, go through the SDK with the same ids.
type Tracer struct {
	global trace.Tracer
}

// NewTracer returns the Tracer of an instrumentation scope.
func NewTracer(name string) *Tracer {
	return &Tracer{global: otel.Tracer(name)}
}

// Start starts a span of kind named spanName, a child of the span in ctx.
// store holds the span if it is not recorded: it must stay untouched while
// the span is in use.
func (t *Tracer) Start(ctx context.Context, spanName string, kind trace.SpanKind, store *NonRecordingSpan) (context.Context, trace.Span) {
	p := headSampled(ctx)
	parent := trace.SpanFromContext(ctx)
	if p == nil || parent.IsRecording() {
		// A recording parent counts its children: the SDK's business.
		return t.global.Start(ctx, spanName, trace.WithSpanKind(kind))
	}
	psc := parent.SpanContext()
	tid, sid := newIDs(psc.TraceID())
	decision := p.sampler.ShouldSample(sdktrace.SamplingParameters{
		ParentContext: ctx, TraceID: tid, Name: spanName, Kind: kind,
	})
	if decision.Decision != sdktrace.Drop {
		// The SDK takes these ids, so its sampler sees the same trace id
		// and decides the same.
		ctx = context.WithValue(ctx, presetIDsKey{}, &spanIDs{trace: tid, span: sid})
		return t.global.Start(ctx, spanName, trace.WithSpanKind(kind))
	}
	*store = NonRecordingSpan{provider: p.traces, sc: trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: tid, SpanID: sid, TraceState: decision.Tracestate,
		TraceFlags: psc.TraceFlags() &^ trace.FlagsSampled,
	})}
	return trace.ContextWithSpan(ctx, store), store
}

// headSampled is the provider of ctx's service when Tracer may decide for
// it: Setup ran, its routing provider is the global one, and the sampler is
// known.
func headSampled(ctx context.Context) *Provider {
	if current.Load() == nil {
		return nil
	}
	if _, ok := otel.GetTracerProvider().(routingProvider); !ok {
		return nil
	}
	if p := For(ctx); p.sampler != nil {
		return p
	}
	return nil
}

// NonRecordingSpan is a span the sampler dropped: it carries its span
// context for propagation and logs and records nothing, like the SDK's.
type NonRecordingSpan struct {
	embedded.Span
	provider trace.TracerProvider
	sc       trace.SpanContext
}

var _ trace.Span = (*NonRecordingSpan)(nil)

func (s *NonRecordingSpan) SpanContext() trace.SpanContext          { return s.sc }
func (s *NonRecordingSpan) IsRecording() bool                       { return false }
func (s *NonRecordingSpan) SetStatus(codes.Code, string)            {}
func (s *NonRecordingSpan) SetAttributes(...attribute.KeyValue)     {}
func (s *NonRecordingSpan) End(...trace.SpanEndOption)              {}
func (s *NonRecordingSpan) RecordError(error, ...trace.EventOption) {}
func (s *NonRecordingSpan) AddEvent(string, ...trace.EventOption)   {}
func (s *NonRecordingSpan) AddLink(trace.Link)                      {}
func (s *NonRecordingSpan) SetName(string)                          {}
func (s *NonRecordingSpan) TracerProvider() trace.TracerProvider    { return s.provider }

// spanIDs are the ids of a span about to start. taken makes them one
// span's only: the context holding them is the parent of the request's
// other spans too.
type spanIDs struct {
	trace trace.TraceID
	span  trace.SpanID
	taken atomic.Bool
}

type presetIDsKey struct{}

// newIDs makes a span's ids as the SDK's default generator does: the
// parent's trace id if it has a valid one, else a random one, and a random
// span id.
func newIDs(parent trace.TraceID) (trace.TraceID, trace.SpanID) {
	tid := parent
	for !tid.IsValid() {
		binary.NativeEndian.PutUint64(tid[:8], rand.Uint64())
		binary.NativeEndian.PutUint64(tid[8:], rand.Uint64())
	}
	return tid, randomSpanID()
}

func randomSpanID() trace.SpanID {
	var sid trace.SpanID
	for !sid.IsValid() {
		binary.NativeEndian.PutUint64(sid[:], rand.Uint64())
	}
	return sid
}

// idGenerator is the providers' ID generator: the SDK's random ids, or
// the ones Tracer made for its decision, once.
type idGenerator struct{}

func (idGenerator) NewIDs(ctx context.Context) (trace.TraceID, trace.SpanID) {
	if ids := takePreset(ctx); ids != nil {
		return ids.trace, ids.span
	}
	return newIDs(trace.TraceID{})
}

func (idGenerator) NewSpanID(ctx context.Context, tid trace.TraceID) trace.SpanID {
	if ids := takePreset(ctx); ids != nil && ids.trace == tid {
		return ids.span
	}
	return randomSpanID()
}

func takePreset(ctx context.Context) *spanIDs {
	ids, _ := ctx.Value(presetIDsKey{}).(*spanIDs)
	if ids == nil || !ids.taken.CompareAndSwap(false, true) {
		return nil
	}
	return ids
}
