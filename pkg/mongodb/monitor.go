package mongodb

import (
	"context"
	"sync"

	"go.mongodb.org/mongo-driver/v2/event"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

const instrumentationName = "github.com/opencollab/backend/pkg/mongodb"

// spanKey identifies one in-flight command. Request ids come from a
// process-wide counter; the connection id is added for safety.
type spanKey struct {
	conn string
	req  int64
}

// monitor turns driver command events into client spans. The upstream
// otelmongo contrib has no driver v2 release we can use, hence this.
type monitor struct {
	tracer trace.Tracer
	spans  sync.Map // spanKey -> trace.Span
}

func newMonitor(tp trace.TracerProvider) *event.CommandMonitor {
	m := &monitor{tracer: tp.Tracer(instrumentationName)}
	return &event.CommandMonitor{
		Started:   m.started,
		Succeeded: m.succeeded,
		Failed:    m.failed,
	}
}

// started opens a span as a child of the caller's span. Command bodies are
// deliberately not recorded: they hold customer data.
// The statement is the command and its collection ("find users"), the
// same shape as the Redis spans' command and key pattern. A span the
// sampler dropped records nothing and ends as a no-op: it gets no
// attributes and is not kept (every command of an unsampled request paid
// for both; a replica that exports no traces has no monitor, see Connect).
func (m *monitor) started(ctx context.Context, e *event.CommandStartedEvent) {
	_, span := m.tracer.Start(ctx, "mongodb."+e.CommandName, trace.WithSpanKind(trace.SpanKindClient))
	if !span.IsRecording() {
		return
	}
	attrs := []attribute.KeyValue{
		attribute.String("db.system", "mongodb"),
		attribute.String("db.name", e.DatabaseName),
		attribute.String("db.operation", e.CommandName),
	}
	statement := e.CommandName
	if coll := collectionOf(e); coll != "" {
		attrs = append(attrs, attribute.String("db.collection.name", coll))
		statement += " " + coll
	}
	span.SetAttributes(append(attrs, attribute.String("db.statement", statement))...)
	m.spans.Store(spanKey{e.ConnectionID, e.RequestID}, span)
}

// collectionOf is the collection a command names as its first field's
// value ({find: "users", ...}), or "" for commands on none (ping, hello).
func collectionOf(e *event.CommandStartedEvent) string {
	first, err := e.Command.IndexErr(0)
	if err != nil {
		return ""
	}
	coll, ok := first.Value().StringValueOK()
	if !ok || first.Key() != e.CommandName {
		return ""
	}
	return coll
}

func (m *monitor) succeeded(_ context.Context, e *event.CommandSucceededEvent) {
	if span := m.take(e.CommandFinishedEvent); span != nil {
		span.End()
	}
}

func (m *monitor) failed(_ context.Context, e *event.CommandFailedEvent) {
	span := m.take(e.CommandFinishedEvent)
	if span == nil {
		return
	}
	if e.Failure != nil {
		span.RecordError(e.Failure)
		span.SetStatus(codes.Error, e.Failure.Error())
	} else {
		span.SetStatus(codes.Error, "command failed")
	}
	span.End()
}

func (m *monitor) take(e event.CommandFinishedEvent) trace.Span {
	v, ok := m.spans.LoadAndDelete(spanKey{e.ConnectionID, e.RequestID})
	if !ok {
		return nil
	}
	return v.(trace.Span)
}
