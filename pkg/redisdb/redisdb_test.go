package redisdb

import (
	"context"
	"strings"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"go.opentelemetry.io/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

func TestConnect(t *testing.T) {
	mr := miniredis.RunT(t)
	closed := miniredis.NewMiniRedis()
	if err := closed.Start(); err != nil {
		t.Fatal(err)
	}
	deadAddr := closed.Addr()
	closed.Close()

	tests := []struct {
		name    string
		url     string
		wantErr string
	}{
		{"ok", "redis://" + mr.Addr(), ""},
		{"ok with db", "redis://" + mr.Addr() + "/3", ""},
		{"bad scheme", "http://" + mr.Addr(), "parse url"},
		{"unreachable", "redis://" + deadAddr, "ping"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Connect(context.Background(), tt.url)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if err := c.Set(t.Context(), "k", "v", 0).Err(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestConnectTraces(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	prev := otel.GetTracerProvider()
	otel.SetTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)))
	t.Cleanup(func() { otel.SetTracerProvider(prev) })

	c, err := Connect(context.Background(), "redis://"+miniredis.RunT(t).Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Set(t.Context(), "k", "v", 0).Err(); err != nil {
		t.Fatal(err)
	}
	for _, s := range rec.Ended() {
		if s.Name() == "set" {
			return
		}
	}
	t.Fatalf("no span for SET among %d spans", len(rec.Ended()))
}
