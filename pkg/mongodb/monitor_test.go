package mongodb

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/opencollab/backend/pkg/testalloc"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

func startEvt(conn string, req int64, cmd string) *event.CommandStartedEvent {
	return &event.CommandStartedEvent{
		CommandName: cmd, DatabaseName: "db1", RequestID: req, ConnectionID: conn,
	}
}

func finishEvt(conn string, req int64, cmd string) event.CommandFinishedEvent {
	return event.CommandFinishedEvent{
		CommandName: cmd, DatabaseName: "db1", RequestID: req, ConnectionID: conn,
	}
}

func TestMonitorSpans(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name       string
		run        func(m *event.CommandMonitor, ctx context.Context)
		wantNames  []string // ended spans in order
		wantStatus []codes.Code
	}{
		{"success", func(m *event.CommandMonitor, ctx context.Context) {
			m.Started(ctx, startEvt("c1", 1, "find"))
			m.Succeeded(ctx, &event.CommandSucceededEvent{CommandFinishedEvent: finishEvt("c1", 1, "find")})
		}, []string{"mongodb.find"}, []codes.Code{codes.Unset}},
		{"failure", func(m *event.CommandMonitor, ctx context.Context) {
			m.Started(ctx, startEvt("c1", 2, "insert"))
			m.Failed(ctx, &event.CommandFailedEvent{CommandFinishedEvent: finishEvt("c1", 2, "insert"), Failure: boom})
		}, []string{"mongodb.insert"}, []codes.Code{codes.Error}},
		{"interleaved ends the right span", func(m *event.CommandMonitor, ctx context.Context) {
			m.Started(ctx, startEvt("c1", 3, "find"))
			m.Started(ctx, startEvt("c2", 4, "update"))
			m.Failed(ctx, &event.CommandFailedEvent{CommandFinishedEvent: finishEvt("c2", 4, "update"), Failure: boom})
			m.Succeeded(ctx, &event.CommandSucceededEvent{CommandFinishedEvent: finishEvt("c1", 3, "find")})
		}, []string{"mongodb.update", "mongodb.find"}, []codes.Code{codes.Error, codes.Unset}},
		{"unknown finish is ignored", func(m *event.CommandMonitor, ctx context.Context) {
			m.Succeeded(ctx, &event.CommandSucceededEvent{CommandFinishedEvent: finishEvt("c9", 99, "find")})
		}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := tracetest.NewSpanRecorder()
			tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
			parentCtx, parent := tp.Tracer("test").Start(context.Background(), "parent")
			tt.run(newMonitor(tp), parentCtx)
			parent.End()

			ended := rec.Ended()
			ended = ended[:len(ended)-1] // drop the parent, ended last
			if len(ended) != len(tt.wantNames) {
				t.Fatalf("ended %d spans, want %d", len(ended), len(tt.wantNames))
			}
			for i, s := range ended {
				checkSpan(t, s, tt.wantNames[i], tt.wantStatus[i], parent.SpanContext())
			}
			if n := len(rec.Started()) - len(rec.Ended()); n != 0 {
				t.Errorf("%d spans left open", n)
			}
		})
	}
}

func checkSpan(t *testing.T, s sdktrace.ReadOnlySpan, name string, status codes.Code, parent trace.SpanContext) {
	t.Helper()
	if s.Name() != name {
		t.Errorf("name = %q, want %q", s.Name(), name)
	}
	if s.Status().Code != status {
		t.Errorf("%s status = %v, want %v", name, s.Status().Code, status)
	}
	if s.SpanKind() != trace.SpanKindClient {
		t.Errorf("%s kind = %v, want client", name, s.SpanKind())
	}
	if s.Parent().SpanID() != parent.SpanID() {
		t.Errorf("%s is not a child of the caller's span", name)
	}
	attrs := map[attribute.Key]string{}
	for _, kv := range s.Attributes() {
		attrs[kv.Key] = kv.Value.Emit()
	}
	want := map[attribute.Key]string{"db.system": "mongodb", "db.name": "db1", "db.operation": name[len("mongodb."):]}
	for k, v := range want {
		if attrs[k] != v {
			t.Errorf("%s attr %s = %q, want %q", name, k, attrs[k], v)
		}
	}
}

func TestIsDuplicateKey(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"plain", errors.New("x"), false},
		{"E11000", mongoWriteErr(11000), true},
		{"other code", mongoWriteErr(121), false},
	}
	for _, tt := range tests {
		if got := IsDuplicateKey(tt.err); got != tt.want {
			t.Errorf("%s: IsDuplicateKey = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func mongoWriteErr(code int) error {
	return fmt.Errorf("wrapped: %w", mongo.WriteException{
		WriteErrors: []mongo.WriteError{{Code: code, Message: "E"}},
	})
}

// A command whose span the sampler drops costs the monitor only the
// dropped span: no attributes, nothing kept until it finishes (5
// allocations per command, 12 before; most realtime writes run unsampled).
func TestMonitorUnsampledCommandAllocatesLittle(t *testing.T) {
	tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.NeverSample()))
	m := newMonitor(tp)
	ctx := context.Background()
	start := startEvt("c1", 1, "insert")
	done := &event.CommandSucceededEvent{CommandFinishedEvent: finishEvt("c1", 1, "insert")}
	allocs := testalloc.PerRun(200, func() {
		m.Started(ctx, start)
		m.Succeeded(ctx, done)
	})
	if allocs > 6 {
		t.Fatalf("an unsampled command allocates %.0f times in the monitor, want at most 6", allocs)
	}
}

// A sampled command's span carries its attributes, set once the sampler
// kept it.
func TestMonitorSampledSpanAttributes(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	m := newMonitor(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)))
	start := startEvt("c1", 1, "insert")
	start.Command = bson.Raw(bsoncore.NewDocumentBuilder().AppendString("insert", "crdt_updates").Build())
	m.Started(context.Background(), start)
	m.Succeeded(context.Background(), &event.CommandSucceededEvent{CommandFinishedEvent: finishEvt("c1", 1, "insert")})
	spans := rec.Ended()
	if len(spans) != 1 {
		t.Fatalf("%d spans ended, want 1", len(spans))
	}
	got := map[attribute.Key]string{}
	for _, a := range spans[0].Attributes() {
		got[a.Key] = a.Value.Emit()
	}
	want := map[attribute.Key]string{
		"db.system": "mongodb", "db.name": "db1", "db.operation": "insert",
		"db.collection.name": "crdt_updates", "db.statement": "insert crdt_updates",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("span attributes %v, want %v", got, want)
	}
}
