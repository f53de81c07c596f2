package logging

import (
	"context"
	"log/slog"

	"go.opentelemetry.io/otel/trace"
)

// TraceHandler wraps another handler and adds trace_id and span_id from the
// span context in the record's context. Use the *Context logging methods
// (InfoContext, ...) so the context reaches the handler.
type TraceHandler struct {
	next slog.Handler
}

// NewTraceHandler wraps next.
func NewTraceHandler(next slog.Handler) *TraceHandler {
	return &TraceHandler{next: next}
}

// Enabled defers to the wrapped handler.
func (h *TraceHandler) Enabled(ctx context.Context, level slog.Level) bool {
	return h.next.Enabled(ctx, level)
}

// Handle adds the trace attributes, if any, and passes the record on.
func (h *TraceHandler) Handle(ctx context.Context, r slog.Record) error {
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		// Clone: the record may be shared with other handlers.
		r = r.Clone()
		r.AddAttrs(
			slog.String("trace_id", sc.TraceID().String()),
			slog.String("span_id", sc.SpanID().String()),
		)
	}
	return h.next.Handle(ctx, r)
}

// WithAttrs keeps the wrapper around the derived handler.
func (h *TraceHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &TraceHandler{next: h.next.WithAttrs(attrs)}
}

// WithGroup keeps the wrapper around the derived handler. Trace ids then land
// inside the open group; our request logs do not use groups, so we accept that
// rather than re-implement group handling.
func (h *TraceHandler) WithGroup(name string) slog.Handler {
	return &TraceHandler{next: h.next.WithGroup(name)}
}
