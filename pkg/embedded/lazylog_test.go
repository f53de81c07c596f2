package embedded

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// countingHandler counts the WithAttrs calls it gets.
type countingHandler struct {
	slog.Handler
	withAttrs *int
}

func (h countingHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	*h.withAttrs++
	return countingHandler{h.Handler.WithAttrs(attrs), h.withAttrs}
}

func (h countingHandler) WithGroup(name string) slog.Handler {
	return countingHandler{h.Handler.WithGroup(name), h.withAttrs}
}

// FerretDB's per-statement debug lines (With(args) then Debug) cost the
// handler nothing at warn level; a line that is logged carries its
// attributes and groups in order.
func TestLazyAttrsFormatOnlyWhatIsLogged(t *testing.T) {
	var buf bytes.Buffer
	withAttrs := 0
	base := countingHandler{slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelWarn}), &withAttrs}
	l := slog.New(dropFailedResponses{lazyAttrs{base: base}})
	doc := strings.Repeat(`{"_id":"k","update":"x"}`, 100)
	for range 10 {
		l.With(slog.Any("args", []any{doc})).DebugContext(t.Context(), ">>> INSERT INTO ...")
	}
	if withAttrs != 0 || buf.Len() != 0 {
		t.Fatalf("discarded debug lines made %d WithAttrs calls and wrote %q", withAttrs, buf.String())
	}
	l.With("a", 1).WithGroup("g").With("b", 2).Warn("disk almost full")
	if got := buf.String(); !strings.Contains(got, `msg="disk almost full" a=1 g.b=2`) {
		t.Fatalf("logged %q, want the attributes a=1 and g.b=2", got)
	}
}
