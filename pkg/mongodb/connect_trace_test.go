package mongodb_test

import (
	"context"
	"strings"
	"testing"

	"go.opentelemetry.io/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/opencollab/backend/pkg/mongodb"
	"github.com/opencollab/backend/pkg/telemetry"
	"github.com/opencollab/backend/pkg/testenv"
)

// Commands get spans where spans are exported; elsewhere the client has
// no command monitor (it cost every command a copy of itself and of its
// reply, and a span nobody recorded).
func TestConnectTracesCommandsOnlyWhenExporting(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	old := otel.GetTracerProvider()
	otel.SetTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)))
	t.Cleanup(func() { otel.SetTracerProvider(old) })
	for _, tt := range []struct {
		endpoint string
		traced   bool
	}{{"", false}, {"http://127.0.0.1:1", true}} {
		t.Setenv(telemetry.EndpointEnv, tt.endpoint)
		client, err := mongodb.Connect(t.Context(), testenv.MongoURI(t))
		if err != nil {
			t.Fatal(err)
		}
		before := commandSpans(rec)
		if _, err := client.Database(testenv.FreshDBName(t)).Collection("things").InsertOne(t.Context(), map[string]int{"n": 1}); err != nil {
			t.Fatal(err)
		}
		_ = client.Disconnect(context.Background())
		if traced := commandSpans(rec) > before; traced != tt.traced {
			t.Errorf("endpoint %q: insert traced %v, want %v", tt.endpoint, traced, tt.traced)
		}
	}
}

// commandSpans counts the ended spans of the command monitor (the
// embedded FerretDB of the tests makes spans of its own).
func commandSpans(rec *tracetest.SpanRecorder) int {
	n := 0
	for _, s := range rec.Ended() {
		if strings.HasPrefix(s.Name(), "mongodb.") {
			n++
		}
	}
	return n
}
