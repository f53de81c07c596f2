package migration

import (
	"context"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/docmigrate"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/svcclient"
	"github.com/opencollab/backend/pkg/web"
)

// tracker sees every step call of every fake: the order of calls and
// whether two calls for the same migration ever ran at once.
type tracker struct {
	mu       sync.Mutex
	inflight map[string]int // document pair → calls in flight
	overlaps []string
	order    []string
}

func (tr *tracker) enter(owner, migrationID string) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.inflight[migrationID]++
	if tr.inflight[migrationID] > 1 {
		tr.overlaps = append(tr.overlaps, owner+" "+migrationID)
	}
	tr.order = append(tr.order, owner)
}

func (tr *tracker) leave(migrationID string) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.inflight[migrationID]--
}

func (tr *tracker) check(t *testing.T) {
	t.Helper()
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if len(tr.overlaps) > 0 {
		t.Fatalf("steps of one migration ran at once: %v", tr.overlaps)
	}
}

// fakeOwner is a service holding records per document. Its migrate is
// idempotent per migration id, as the contract requires; it counts calls
// and the calls that actually moved data.
type fakeOwner struct {
	name string
	tr   *tracker

	mu        sync.Mutex
	data      map[string]int64 // document id → records
	moved     map[string]bool  // migration id (or document pair) → done
	calls     int
	moves     int
	callTimes []time.Time
	hasErr    error
	// fail returns the error of call n (1-based), nil for success.
	fail func(n int) error
	// blockFirst makes the first call move the data and then hang until
	// its caller gives up, like a reply lost in a crash.
	blockFirst bool
	blocked    chan struct{} // closed when the blocked call arrived
	// delay keeps each call in flight, widening any overlap.
	delay time.Duration
}

func newFakeOwner(name string, tr *tracker, data map[string]int64) *fakeOwner {
	if data == nil {
		data = map[string]int64{}
	}
	return &fakeOwner{name: name, tr: tr, data: data, moved: map[string]bool{}, blocked: make(chan struct{})}
}

func (f *fakeOwner) DocumentHasData(_ context.Context, doc Document) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.hasErr != nil {
		return false, f.hasErr
	}
	return f.data[doc.DocumentID] > 0, nil
}

func (f *fakeOwner) MigrateDocument(ctx context.Context, req StepRequest) (int64, error) {
	// One migration per document pair in these tests: the pair names the
	// migration for the overlap check, in process (no id) as over HTTP.
	pair := req.DocumentID + ">" + req.NewDocumentID
	f.tr.enter(f.name, pair)
	defer f.tr.leave(pair)
	key := req.MigrationID
	if key == "" {
		key = pair
	}
	f.mu.Lock()
	f.calls++
	n := f.calls
	f.callTimes = append(f.callTimes, time.Now())
	var err error
	if f.fail != nil {
		err = f.fail(n)
	}
	var moved int64
	if err == nil && !f.moved[key] {
		moved = f.data[req.DocumentID]
		f.data[req.NewDocumentID] += moved
		delete(f.data, req.DocumentID)
		f.moved[key] = true
		f.moves++
	}
	block := f.blockFirst && n == 1
	f.mu.Unlock()
	if block {
		close(f.blocked)
		<-ctx.Done()
		return 0, ctx.Err()
	}
	if f.delay > 0 {
		select {
		case <-time.After(f.delay):
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
	return moved, err
}

func (f *fakeOwner) stats() (calls, moves int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls, f.moves
}

func (f *fakeOwner) records(doc string) int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.data[doc]
}

// serve puts f behind the /internal contract, as the owning services
// serve it, and returns a client of it.
func serve(t *testing.T, f *fakeOwner) (*docmigrate.Client, *httptest.Server) {
	t.Helper()
	e := web.NewEngine(nil)
	docmigrate.Routes(e.Group("", testSigner.Authenticate(), internalauth.RequireService()), f)
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return docmigrate.NewClient(svcclient.New(f.name, srv.URL, testSigner), "content"), srv
}

// localMover adapts a fakeOwner to the in-process Mover shape.
type localMover struct{ f *fakeOwner }

func (m localMover) MoveDocument(ctx context.Context, ws, org, doc, newDoc string) (int64, error) {
	return m.f.MigrateDocument(ctx, StepRequest{WorkspaceID: ws, OrganizationID: org, DocumentID: doc, NewDocumentID: newDoc})
}

func (m localMover) HasDocumentData(ctx context.Context, ws, org, doc string) (bool, error) {
	return m.f.DocumentHasData(ctx, Document{WorkspaceID: ws, OrganizationID: org, DocumentID: doc})
}
