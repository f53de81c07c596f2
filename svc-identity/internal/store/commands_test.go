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
	// inFlight and mostInFlight are the update commands sent and not yet
	// answered, now and at most.
	inFlight, mostInFlight int
	updates                map[int64]bool // request ids of updates in flight
}

func (c *commandCounter) started(_ context.Context, e *event.CommandStartedEvent) {
	if e.DatabaseName != c.db {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.count[e.CommandName]++
	if e.CommandName == "update" {
		c.updates[e.RequestID] = true
		c.inFlight++
		c.mostInFlight = max(c.mostInFlight, c.inFlight)
	}
}

func (c *commandCounter) finished(id int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.updates[id] {
		delete(c.updates, id)
		c.inFlight--
	}
}

// take returns the counts and the most updates in flight since the last
// take, and starts again.
func (c *commandCounter) take() (map[string]int, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out, most := c.count, c.mostInFlight
	c.count, c.mostInFlight = map[string]int{}, 0
	return out, most
}

// countedDB is a fresh database on its own client, whose commands are
// counted.
func countedDB(t *testing.T) (*mongo.Database, *commandCounter) {
	t.Helper()
	c := &commandCounter{db: testenv.FreshDBName(t), count: map[string]int{}, updates: map[int64]bool{}}
	client, err := mongo.Connect(options.Client().ApplyURI(testenv.MongoURI(t)).SetMonitor(&event.CommandMonitor{
		Started:   c.started,
		Succeeded: func(_ context.Context, e *event.CommandSucceededEvent) { c.finished(e.RequestID) },
		Failed:    func(_ context.Context, e *event.CommandFailedEvent) { c.finished(e.RequestID) },
	}))
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
