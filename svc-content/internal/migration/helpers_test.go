package migration

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/opencollab/backend/pkg/docmigrate"
	"github.com/opencollab/backend/pkg/events/eventstest"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/svcclient"
	"github.com/opencollab/backend/pkg/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

const (
	testWS  = "ws_test"
	testOrg = "org_test"
)

var testSigner = internalauth.NewSigner("test-internal-secret-0123456789")

// fastOptions keep tests quick: fast polls and tiny pauses. The lease is
// long enough that a loaded machine (race detector, FerretDB) keeps it;
// tests about expiry shorten it.
func fastOptions() WorkerOptions {
	return WorkerOptions{
		Lease: 2 * time.Second, PollInterval: 20 * time.Millisecond,
		StepTries: 2, RetryBackoff: 5 * time.Millisecond,
		MaxAttempts: 3, AttemptBackoff: 10 * time.Millisecond,
	}
}

// harness is svc-content's database plus the four owners in their
// production order: content in process, the others over HTTP.
type harness struct {
	t        *testing.T
	db       *mongo.Database
	tr       *tracker
	content  *fakeOwner
	notify   *fakeOwner
	activity *fakeOwner
	identity *fakeOwner
	servers  map[string]*httptest.Server
	pub      *eventstest.Recorder
}

// newHarness starts owners holding data of document "doc-a".
func newHarness(t *testing.T) *harness {
	t.Helper()
	tr := &tracker{inflight: map[string]int{}}
	h := &harness{t: t, db: testenv.Mongo(t), tr: tr, pub: &eventstest.Recorder{}, servers: map[string]*httptest.Server{}}
	h.content = newFakeOwner("content", tr, map[string]int64{"doc-a": 5})
	h.notify = newFakeOwner("notify", tr, map[string]int64{"doc-a": 2})
	h.activity = newFakeOwner("activity", tr, map[string]int64{"doc-a": 7})
	h.identity = newFakeOwner("identity", tr, map[string]int64{"doc-a": 1})
	return h
}

func (h *harness) fakes() []*fakeOwner {
	return []*fakeOwner{h.content, h.notify, h.activity, h.identity}
}

// service returns a new Service (a "process") over the shared database.
// Servers are started once, so every process calls the same fakes.
func (h *harness) service() *Service {
	h.t.Helper()
	steps := []Step{{Name: "content", Owner: docmigrate.Keyed(localMover{h.content})}}
	for _, f := range h.fakes()[1:] {
		remote, srv := h.remote(f)
		h.servers[f.name] = srv
		steps = append(steps, Step{Name: f.name, Owner: remote})
	}
	svc := NewService(h.db, steps, h.pub, slog.New(slog.DiscardHandler))
	if err := svc.EnsureIndexes(context.Background()); err != nil {
		h.t.Fatal(err)
	}
	return svc
}

func (h *harness) remote(f *fakeOwner) (*docmigrate.Client, *httptest.Server) {
	if srv, ok := h.servers[f.name]; ok {
		return docmigrate.NewClient(svcclient.New(f.name, srv.URL, testSigner), "content"), srv
	}
	return serve(h.t, f)
}

// start starts a migration of doc-a to doc-b.
func (h *harness) start(svc *Service) string {
	h.t.Helper()
	id, err := svc.Start(context.Background(), StartRequest{WorkspaceID: testWS, OrganizationID: testOrg, DocumentID: "doc-a", NewDocumentID: "doc-b"})
	if err != nil {
		h.t.Fatalf("Start: %v", err)
	}
	return id
}

// runWorker runs a worker until the returned stop is called; stop waits
// for it to return.
func runWorker(ctx context.Context, w *Worker) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.Run(ctx)
	}()
	return func() {
		cancel()
		<-done
	}
}

// waitStatus polls until migration id reaches want (or a deadline).
func waitStatus(t *testing.T, svc *Service, id string, want Status) View {
	t.Helper()
	var v View
	waitFor(t, func() bool {
		var err error
		v, err = svc.Status(context.Background(), testWS, testOrg, id)
		if err != nil {
			t.Fatalf("Status: %v", err)
		}
		if v.Status != want && (v.Status == Completed || v.Status == Failed) {
			t.Fatalf("migration ended %s (%s), want %s", v.Status, v.Error, want)
		}
		return v.Status == want
	}, "migration "+string(want))
	return v
}

// waitFor polls cond until it holds, failing after a generous deadline.
func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (h *harness) count(coll string) int64 {
	h.t.Helper()
	n, err := h.db.Collection(coll).CountDocuments(context.Background(), bson.M{})
	if err != nil {
		h.t.Fatal(err)
	}
	return n
}

func (h *harness) record(id string) record {
	h.t.Helper()
	r, err := newStore(h.db).get(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	return r
}
