package realtime

import (
	"testing"
	"time"

	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// The document an edit event renders holds only stored updates:
// StoredDocument waits for the write of what it holds.
func TestStoredDocumentWaitsForTheStore(t *testing.T) {
	t.Parallel()
	store := newGatedStore()
	hub := NewHub(Options{Store: store, Access: fakeAccess{}})
	srv := serveHub(t, hub)
	t.Cleanup(store.release)
	key := DocKey{"ws1", "org1", "snap", "ed1"}
	if _, ok, err := hub.StoredDocument(t.Context(), key); ok || err != nil {
		t.Fatalf("a document not loaded here: ok %v, err %v; want neither", ok, err)
	}
	sendText(t, rawClient(t, srv.wsBase, "org1/snap/ed1", "editor:ada", 0), 1, "hi")
	<-store.started
	type result struct {
		doc []byte
		ok  bool
		err error
	}
	done := make(chan result, 1)
	go func() {
		doc, ok, err := hub.StoredDocument(t.Context(), key)
		done <- result{doc, ok, err}
	}()
	select {
	case r := <-done:
		t.Fatalf("StoredDocument returned (ok %v, %v) while the update was being stored", r.ok, r.err)
	case <-time.After(200 * time.Millisecond):
	}
	store.release()
	r := <-done
	if !r.ok || r.err != nil {
		t.Fatalf("after the write: ok %v, err %v", r.ok, r.err)
	}
	d := yjs.NewDoc(9)
	if err := d.ApplyUpdate(r.doc); err != nil {
		t.Fatal(err)
	}
	if got := d.Text("content").String(); got != "hi" {
		t.Fatalf("document text %q, want hi", got)
	}
}
