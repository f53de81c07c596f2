package logging

import (
	"context"
	"log/slog"

	"go.opentelemetry.io/otel/trace"

	"github.com/opencollab/backend/pkg/telemetry"
)

// TraceHandler wraps another handler and adds trace_id and span_id from the
// span context in the record's context, and the service the context belongs
// to (telemetry.WithService) unless the logger names one already. Use the
// *Context logging methods (InfoContext, ...) so the context reaches the
// handler.
type TraceHandler struct {
	next       slog.Handler
	hasService bool
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
	service := ""
	if !h.hasService {
		service = telemetry.ServiceOf(ctx)
	}
	sc := trace.SpanContextFromContext(ctx)
	if service == "" && !sc.IsValid() {
		return h.next.Handle(ctx, r)
	}
	// Clone: the record may be shared with other handlers.
	r = r.Clone()
	if service != "" && !hasAttr(r, ServiceKey) {
		r.AddAttrs(slog.String(ServiceKey, service))
	}
	if sc.IsValid() {
		r.AddAttrs(
			slog.String("trace_id", sc.TraceID().String()),
			slog.String("span_id", sc.SpanID().String()),
		)
	}
	return h.next.Handle(ctx, r)
}

func hasAttr(r slog.Record, key string) bool {
	found := false
	r.Attrs(func(a slog.Attr) bool {
		found = a.Key == key
		return !found
	})
	return found
}

// WithAttrs keeps the wrapper around the derived handler and remembers
// whether the service is named.
func (h *TraceHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	has := h.hasService
	for _, a := range attrs {
		has = has || a.Key == ServiceKey
	}
	return &TraceHandler{next: h.next.WithAttrs(attrs), hasService: has}
}

// WithGroup keeps the wrapper around the derived handler. Trace ids then land
// inside the open group; our request logs do not use groups, so we accept that
// rather than re-implement group handling.
func (h *TraceHandler) WithGroup(name string) slog.Handler {
	return &TraceHandler{next: h.next.WithGroup(name), hasService: h.hasService}
}
