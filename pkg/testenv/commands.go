package testenv

import (
	"context"
	"sync"
	"testing"

	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// CommandCounter counts the commands a client sends, by name: the
// load-independent evidence of what a store operation costs.
type CommandCounter struct {
	mu    sync.Mutex
	names map[string]int
}

func (c *CommandCounter) started(_ context.Context, e *event.CommandStartedEvent) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.names[e.CommandName]++
}

// Count runs fn and returns the commands it sent, by name.
func (c *CommandCounter) Count(fn func()) map[string]int {
	c.mu.Lock()
	c.names = map[string]int{}
	c.mu.Unlock()
	fn()
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.names
	c.names = map[string]int{}
	return out
}

// CountingMongo returns a fresh database on a client of its own whose
// commands the counter counts; the client is closed when t ends.
func CountingMongo(t testing.TB) (*mongo.Database, *CommandCounter) {
	t.Helper()
	counter := &CommandCounter{names: map[string]int{}}
	client, err := mongo.Connect(options.Client().ApplyURI(MongoURI(t)).SetMonitor(&event.CommandMonitor{Started: counter.started}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Disconnect(context.Background()) })
	return client.Database(FreshDBName(t)), counter
}
