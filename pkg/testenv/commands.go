package testenv

import (
	"context"
	"sync"
	"testing"

	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// CommandCounter keeps the commands a client sends to its database: the
// load-independent evidence of what a store operation costs (how many
// round trips, and how many of them scan a collection).
type CommandCounter struct {
	db   string
	mu   sync.Mutex
	sent Sent
}

func (c *CommandCounter) started(_ context.Context, e *event.CommandStartedEvent) {
	if e.DatabaseName != c.db {
		return // the driver's own admin commands, not the store's
	}
	cmd := newCommand(e)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sent = append(c.sent, cmd)
}

// Record runs fn and returns the commands it sent.
func (c *CommandCounter) Record(fn func()) Sent {
	c.Take()
	fn()
	return c.Take()
}

// Count runs fn and returns the commands it sent, by name.
func (c *CommandCounter) Count(fn func()) map[string]int {
	return c.Record(fn).Counts()
}

// Take returns the commands sent since the last Take (or Record) and starts
// again: for tests that measure a stretch of calls rather than one func.
func (c *CommandCounter) Take() Sent {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.sent
	c.sent = nil
	return out
}

// CountingMongo returns a fresh database on a client of its own whose
// commands the counter keeps; the client is closed when t ends.
func CountingMongo(t testing.TB) (*mongo.Database, *CommandCounter) {
	t.Helper()
	counter := &CommandCounter{db: FreshDBName(t)}
	client, err := mongo.Connect(options.Client().ApplyURI(MongoURI(t)).SetMonitor(&event.CommandMonitor{Started: counter.started}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Disconnect(context.Background()) })
	return client.Database(counter.db), counter
}
