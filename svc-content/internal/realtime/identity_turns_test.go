package realtime

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/svcclient"
)

// fakeIdentity answers every access question with a grant after a pause,
// counting the calls and the most that ran at once.
type fakeIdentity struct {
	calls, running, most atomic.Int32
}

func (f *fakeIdentity) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	f.calls.Add(1)
	n := f.running.Add(1)
	for m := f.most.Load(); n > m && !f.most.CompareAndSwap(m, n); m = f.most.Load() {
	}
	time.Sleep(20 * time.Millisecond) // long enough for the clients to pile up
	f.running.Add(-1)
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprint(w, `{"result":{"data":{"allowed":true,"workspaceId":"ws1","userId":"ada","accessRole":"editor"}}}`)
}

func newTurnsAccess(t *testing.T) (*IdentityAccess, *fakeIdentity) {
	t.Helper()
	f := &fakeIdentity{}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	client := svcclient.New("identity", srv.URL, internalauth.NewSigner("test-secret"))
	return NewIdentityAccess(client, time.Minute), f
}

// checkAll asks docs×perDoc questions at once (token "t", documents
// doc0..), as a burst of connecting clients does.
func checkAll(t *testing.T, a *IdentityAccess, docs, perDoc int) {
	t.Helper()
	var wg sync.WaitGroup
	for i := range docs * perDoc {
		wg.Go(func() {
			if _, err := a.Check(context.Background(), "t", "org1", fmt.Sprintf("doc%d", i%docs)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
}

// A burst of connecting clients asks identity a few questions at a time:
// each call in flight holds a pooled HTTP connection (and identity's
// database connections behind it) that the pools keep afterwards.
func TestIdentityCallsBoundedInBurst(t *testing.T) {
	t.Parallel()
	a, f := newTurnsAccess(t)
	checkAll(t, a, 40, 1)
	if got := f.most.Load(); got > identityTurns {
		t.Fatalf("%d calls to identity ran at once, want at most %d", got, identityTurns)
	}
	if got := f.calls.Load(); got != 40 {
		t.Fatalf("%d calls for 40 documents, want 40", got)
	}
}

// Clients of one document connecting together are decided by one call:
// those asking while it is under way wait for its decision. (Finding the
// decision once a turn came allowed up to identityTurns calls per
// document: 7 for 2 documents was seen.)
func TestIdentityAsksOnceForClientsOfOneDocument(t *testing.T) {
	t.Parallel()
	a, f := newTurnsAccess(t)
	checkAll(t, a, 2, 30)
	if got := f.calls.Load(); got != 2 {
		t.Fatalf("%d calls for 60 clients of 2 documents, want 2", got)
	}
}
