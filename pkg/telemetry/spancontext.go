package telemetry

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/trace"
)

// spanContextKey is the key under which the trace API keeps a context's
// span. It is unexported there; it is learnt once by asking
// trace.SpanFromContext for the span of a context that records the key it
// is asked for. nil if the API ever stops asking Value: then contexts are
// made with trace.ContextWithSpan.
var spanContextKey = func() any {
	probe := &keyProbe{Context: context.Background()}
	trace.SpanFromContext(probe)
	return probe.key
}()

type keyProbe struct {
	context.Context
	key any
}

func (p *keyProbe) Value(key any) any {
	p.key = key
	return nil
}

// withSpan returns parent with store as its span, as trace.ContextWithSpan
// does, but in store's own memory: the context is the store seen as a
// context (spanInContext), so a request's span costs no allocation of
// context.WithValue.
func withSpan(parent context.Context, store *NonRecordingSpan) context.Context {
	if spanContextKey == nil {
		return trace.ContextWithSpan(parent, store)
	}
	store.parent = parent
	return (*spanInContext)(store)
}

// spanInContext is a NonRecordingSpan seen as the context holding it: its
// parent's deadline, cancellation and values, and the span under the trace
// API's key.
type spanInContext NonRecordingSpan

func (c *spanInContext) Deadline() (time.Time, bool) { return c.parent.Deadline() }
func (c *spanInContext) Done() <-chan struct{}       { return c.parent.Done() }
func (c *spanInContext) Err() error                  { return c.parent.Err() }

func (c *spanInContext) Value(key any) any {
	if key == spanContextKey {
		return (*NonRecordingSpan)(c)
	}
	return c.parent.Value(key)
}

func (c *spanInContext) String() string { return "telemetry.spanInContext" }
