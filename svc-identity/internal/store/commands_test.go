package store_test

import (
	"context"
	"sync"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-identity/internal/store"
)

// commandLog counts what a store sends while recording: the commands, and
// the filters that are not an exact _id alone. FerretDB v1 (the embedded
// store) reads its whole collection for each of the latter (a scan), so a
// batch must send a bounded number of them, not a few per item.
type commandLog struct {
	mu        sync.Mutex
	on        bool
	commands  []string // command names in order, getMore left out
	scans     []string // the command name of each scan
	byIDWrite int      // update and delete statements addressed by _id
}

func (l *commandLog) started(_ context.Context, e *event.CommandStartedEvent) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.on || e.CommandName == "getMore" {
		return // getMore reads on in a cursor: no new scan
	}
	l.commands = append(l.commands, e.CommandName)
	switch e.CommandName {
	case "find", "count", "aggregate":
		if f, ok := e.Command.Lookup("filter").DocumentOK(); !ok || !isExactID(f) {
			l.scans = append(l.scans, e.CommandName)
		}
	case "update", "delete":
		key := map[string]string{"update": "updates", "delete": "deletes"}[e.CommandName]
		statements, _ := e.Command.Lookup(key).Array().Values()
		for _, st := range statements {
			if q := st.Document().Lookup("q").Document(); isExactID(q) {
				l.byIDWrite++
			} else {
				l.scans = append(l.scans, e.CommandName)
			}
		}
	}
}

// isExactID reports whether filter is {_id: <a plain value>}.
func isExactID(filter bson.Raw) bool {
	elems, err := filter.Elements()
	if err != nil || len(elems) != 1 || elems[0].Key() != "_id" {
		return false
	}
	_, isDoc := elems[0].Value().DocumentOK()
	return !isDoc
}

// record runs fn and returns what it sent.
func (l *commandLog) record(fn func()) commandLog {
	l.mu.Lock()
	l.on, l.commands, l.scans, l.byIDWrite = true, nil, nil, 0
	l.mu.Unlock()
	fn()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.on = false
	return commandLog{commands: l.commands, scans: l.scans, byIDWrite: l.byIDWrite}
}

// newRecordedStore returns a Store on a fresh database whose client logs
// its commands to the returned log.
func newRecordedStore(t *testing.T) (*store.Store, *commandLog) {
	t.Helper()
	log := &commandLog{}
	client, err := mongo.Connect(options.Client().ApplyURI(testenv.MongoURI(t)).SetMonitor(&event.CommandMonitor{Started: log.started}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Disconnect(context.Background()) })
	s := store.New(client.Database(testenv.FreshDBName(t)))
	if err := s.EnsureIndexes(t.Context()); err != nil {
		t.Fatal(err)
	}
	return s, log
}
