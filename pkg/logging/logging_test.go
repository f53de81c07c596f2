package logging

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/trace"

	"github.com/opencollab/backend/pkg/telemetry"
)

func TestParseLevel(t *testing.T) {
	tests := []struct {
		in   string
		want slog.Level
	}{
		{"debug", slog.LevelDebug},
		{"DEBUG", slog.LevelDebug},
		{"info", slog.LevelInfo},
		{" warn ", slog.LevelWarn},
		{"warning", slog.LevelWarn},
		{"error", slog.LevelError},
		{"", slog.LevelInfo},
		{"verbose", slog.LevelInfo},
	}
	for _, tt := range tests {
		if got := ParseLevel(tt.in); got != tt.want {
			t.Errorf("ParseLevel(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func spanContext(t *testing.T) trace.SpanContext {
	t.Helper()
	tid, _ := trace.TraceIDFromHex("4bf92f3577b34da6a3ce929d0e0e4736")
	sid, _ := trace.SpanIDFromHex("00f067aa0ba902b7")
	sc := trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled, Remote: true,
	})
	if !sc.IsValid() {
		t.Fatal("hand-made span context is invalid")
	}
	return sc
}

func TestNewAddsServiceAndTrace(t *testing.T) {
	sampled := trace.ContextWithSpanContext(context.Background(), spanContext(t))
	tests := []struct {
		name      string
		ctx       context.Context
		level     slog.Level
		logAt     slog.Level
		wantLine  bool
		wantTrace string
		wantSpan  string
	}{
		{"with span", sampled, slog.LevelInfo, slog.LevelInfo, true,
			"4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"},
		{"without span", context.Background(), slog.LevelInfo, slog.LevelInfo, true, "", ""},
		{"below level", sampled, slog.LevelWarn, slog.LevelInfo, false, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			New(&buf, tt.level, "svc-test").With("k", "v").Log(tt.ctx, tt.logAt, "hello")
			if !tt.wantLine {
				if buf.Len() != 0 {
					t.Fatalf("expected no output, got %s", buf.String())
				}
				return
			}
			var rec map[string]any
			if err := json.Unmarshal(buf.Bytes(), &rec); err != nil {
				t.Fatalf("not JSON: %v: %s", err, buf.String())
			}
			check := map[string]any{"service": "svc-test", "msg": "hello", "k": "v"}
			for k, v := range check {
				if rec[k] != v {
					t.Errorf("%s = %v, want %v", k, rec[k], v)
				}
			}
			if got, _ := rec["trace_id"].(string); got != tt.wantTrace {
				t.Errorf("trace_id = %q, want %q", got, tt.wantTrace)
			}
			if got, _ := rec["span_id"].(string); got != tt.wantSpan {
				t.Errorf("span_id = %q, want %q", got, tt.wantSpan)
			}
		})
	}
}

func TestServiceFromContextOnce(t *testing.T) {
	ctx := telemetry.WithService(context.Background(), "svc-ctx")
	tests := []struct {
		name   string
		logger func(*bytes.Buffer) *slog.Logger
		want   string
	}{
		{"host logger takes the context's service", func(b *bytes.Buffer) *slog.Logger { return New(b, slog.LevelInfo, "") }, "svc-ctx"},
		{"a named logger keeps its own", func(b *bytes.Buffer) *slog.Logger { return New(b, slog.LevelInfo, "svc-own") }, "svc-own"},
		{"a service added with With", func(b *bytes.Buffer) *slog.Logger {
			return New(b, slog.LevelInfo, "").With(ServiceKey, "svc-with")
		}, "svc-with"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			tt.logger(&buf).InfoContext(ctx, "hello")
			line := buf.String()
			if n := strings.Count(line, `"service":`); n != 1 {
				t.Fatalf("service key %d times: %s", n, line)
			}
			if !strings.Contains(line, `"service":"`+tt.want+`"`) {
				t.Fatalf("want service %s: %s", tt.want, line)
			}
		})
	}
}
