package telemetry

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// restoreGlobals undoes Setup's global side effects after a test.
func restoreGlobals(t *testing.T) {
	prop, tp := otel.GetTextMapPropagator(), otel.GetTracerProvider()
	t.Cleanup(func() {
		otel.SetTextMapPropagator(prop)
		otel.SetTracerProvider(tp)
	})
}

func TestSetupPropagatesWithoutEndpoint(t *testing.T) {
	setupUnexported(t)

	tests := []struct {
		name, header, wantTrace string
		wantValid               bool
	}{
		{"sampled", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
			"4bf92f3577b34da6a3ce929d0e0e4736", true},
		{"garbage", "not-a-traceparent", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := propagation.HeaderCarrier(http.Header{})
			in.Set("traceparent", tt.header)
			ctx := otel.GetTextMapPropagator().Extract(context.Background(), in)
			sc := trace.SpanContextFromContext(ctx)
			if sc.IsValid() != tt.wantValid {
				t.Fatalf("valid = %v, want %v", sc.IsValid(), tt.wantValid)
			}
			if !tt.wantValid {
				return
			}
			// A child of the remote parent keeps its trace id,
			// so outgoing calls carry the caller's trace id.
			ctx, span := otel.Tracer("t").Start(ctx, "child")
			defer span.End()
			out := propagation.HeaderCarrier(http.Header{})
			otel.GetTextMapPropagator().Inject(ctx, out)
			if got := out.Get("traceparent"); !strings.Contains(got, tt.wantTrace) {
				t.Fatalf("injected traceparent %q lacks trace id %s", got, tt.wantTrace)
			}
		})
	}
}

func TestSetupExportsWithEndpoint(t *testing.T) {
	restoreGlobals(t)
	var posts atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if r.Method == http.MethodPost && r.URL.Path == "/v1/traces" {
			posts.Add(1)
		}
		w.WriteHeader(http.StatusOK)
	}))
	defer srv.Close()
	t.Setenv(EndpointEnv, srv.URL)

	ctx := context.Background()
	shutdown, err := Setup(ctx, Service{Name: "svc-test"})
	if err != nil {
		t.Fatal(err)
	}
	_, span := otel.Tracer("t").Start(ctx, "op")
	span.End()
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := shutdown(sctx); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	if posts.Load() == 0 {
		t.Fatal("no spans were exported to the OTLP endpoint")
	}
}
