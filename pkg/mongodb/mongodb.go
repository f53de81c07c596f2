// Package mongodb connects services to MongoDB (or FerretDB) with tracing.
package mongodb

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.opentelemetry.io/otel"

	"github.com/opencollab/backend/pkg/telemetry"
)

// pingTimeout bounds start-up: a service that cannot reach its database
// should fail fast and let the orchestrator restart it.
const pingTimeout = 10 * time.Second

// Connect opens a client for uri, traces its commands and pings the server
// before returning. Settings in the URI override the defaults below.
//
// Commands are traced only where spans are exported (telemetry.Exporting):
// a command monitor makes the driver copy every command and reply for it
// (the documents of every insert too) and start a span per command, which
// without an exporter is never recorded.
func Connect(ctx context.Context, uri string) (*mongo.Client, error) {
	var monitor *event.CommandMonitor
	if telemetry.Exporting() {
		monitor = newMonitor(otel.GetTracerProvider())
	}
	opts := options.Client().
		SetMaxPoolSize(50).
		SetMinPoolSize(0).
		SetMaxConnIdleTime(5 * time.Minute).
		SetConnectTimeout(5 * time.Second).
		SetServerSelectionTimeout(pingTimeout).
		SetMonitor(monitor).
		ApplyURI(uri)
	client, err := mongo.Connect(opts)
	if err != nil {
		return nil, fmt.Errorf("mongodb: connect: %w", err)
	}
	pctx, cancel := context.WithTimeout(ctx, pingTimeout)
	defer cancel()
	if err := client.Ping(pctx, nil); err != nil {
		_ = client.Disconnect(context.WithoutCancel(ctx))
		return nil, fmt.Errorf("mongodb: ping: %w", err)
	}
	return client, nil
}

// IsDuplicateKey reports whether err is a unique-index violation, which
// callers turn into ALREADY_EXISTS or treat as "someone else won the race".
func IsDuplicateKey(err error) bool {
	return err != nil && mongo.IsDuplicateKeyError(err)
}

// EnsureIndexes creates the given indexes. Creating an index that already
// exists with the same keys and options is a no-op on the server, so this is
// safe to run at every start-up.
//
// Indexes are created one per command: FerretDB v1.24 panics and drops the
// connection when a single createIndexes names two or more existing indexes
// (it deletes from a filtered slice by the unfiltered position).
func EnsureIndexes(ctx context.Context, coll *mongo.Collection, models ...mongo.IndexModel) error {
	for _, m := range models {
		if _, err := coll.Indexes().CreateOne(ctx, m); err != nil {
			return fmt.Errorf("mongodb: index %v on %s.%s: %w",
				m.Keys, coll.Database().Name(), coll.Name(), err)
		}
	}
	return nil
}

// IsNotFound reports whether err means the query matched no document.
func IsNotFound(err error) bool {
	return errors.Is(err, mongo.ErrNoDocuments)
}
