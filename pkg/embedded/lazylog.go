package embedded

import (
	"context"
	"log/slog"
	"slices"
)

// lazyAttrs hands its handler the attributes and groups of With and
// WithGroup only when a record is logged. FerretDB's SQL layer calls
// With(args) around every statement it runs, to log it at debug level
// with its arguments (whole JSON documents); text and JSON handlers format
// attributes at With, so every insert quoted its documents twice, to
// discard them (1.4% of the local system's CPU in realtimebench). Levels
// do not depend on attributes, so Enabled asks the handler as it is.
type lazyAttrs struct {
	base  slog.Handler
	steps []lazyStep // in the order they were added
}

// lazyStep is one With (attrs) or WithGroup (group).
type lazyStep struct {
	attrs []slog.Attr
	group string
}

func (h lazyAttrs) Enabled(ctx context.Context, l slog.Level) bool { return h.base.Enabled(ctx, l) }

func (h lazyAttrs) Handle(ctx context.Context, r slog.Record) error {
	out := h.base
	for _, s := range h.steps {
		if s.attrs != nil {
			out = out.WithAttrs(s.attrs)
		} else {
			out = out.WithGroup(s.group)
		}
	}
	return out.Handle(ctx, r)
}

// WithAttrs keeps attrs (a handler owns the slice it is given).
func (h lazyAttrs) WithAttrs(attrs []slog.Attr) slog.Handler {
	if len(attrs) == 0 {
		return h
	}
	return lazyAttrs{base: h.base, steps: append(slices.Clip(h.steps), lazyStep{attrs: attrs})}
}

func (h lazyAttrs) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	return lazyAttrs{base: h.base, steps: append(slices.Clip(h.steps), lazyStep{group: name})}
}
