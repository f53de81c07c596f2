package store_test

import (
	"context"
	"sync"
	"testing"

	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/testenv"
)

// commandCounter counts the store commands sent to one database by name
// (insert, update, find, delete…): the load-independent measure of a
// batch write's cost on a store where each command is a round trip and
// each non-_id filter a scan.
type commandCounter struct {
	db    string
	mu    sync.Mutex
	count map[string]int
}

func (c *commandCounter) started(_ context.Context, e *event.CommandStartedEvent) {
	if e.DatabaseName != c.db {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.count[e.CommandName]++
}

// take returns the counts since the last take and starts again.
func (c *commandCounter) take() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.count
	c.count = map[string]int{}
	return out
}

// countedDB is a fresh database on its own client, whose commands are
// counted.
func countedDB(t *testing.T) (*mongo.Database, *commandCounter) {
	t.Helper()
	c := &commandCounter{db: testenv.FreshDBName(t), count: map[string]int{}}
	client, err := mongo.Connect(options.Client().ApplyURI(testenv.MongoURI(t)).
		SetMonitor(&event.CommandMonitor{Started: c.started}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Disconnect(context.Background()) })
	return client.Database(c.db), c
}

// ensured runs an EnsureIndexes, failing t on an error.
func ensured(t *testing.T, ensure func(context.Context) error) {
	t.Helper()
	if err := ensure(t.Context()); err != nil {
		t.Fatal(err)
	}
}
