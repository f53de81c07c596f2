package erasure_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-identity/internal/erasure"
	"github.com/opencollab/backend/svc-identity/internal/store"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// fakeService records erase calls and fails while down is set.
type fakeService struct {
	mu    sync.Mutex
	down  bool
	calls [][]string
}

func (f *fakeService) Erase(_ context.Context, ws string, users []string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down {
		return errors.New("connection refused")
	}
	f.calls = append(f.calls, append([]string{ws}, users...))
	return nil
}

func TestJobResumesAfterACrashAndIsIdempotent(t *testing.T) {
	db := testenv.Mongo(t)
	ctx := t.Context()
	content, notify := &fakeService{down: true}, &fakeService{}
	first := erasure.NewService(store.NewErasureJobs(db), map[string]erasure.Eraser{"content": content, "notify": notify}, nil)
	job, err := first.Start(ctx, "ws1", erasure.Request{UserIDs: []string{"u1", "u2"}})
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := first.Start(ctx, "ws1", erasure.Request{UserIDs: []string{"u2", "u1"}}); again.ID != job.ID {
		t.Fatalf("same users, new job: %s vs %s", again.ID, job.ID)
	}
	// Half the job runs, then the process "dies" (first is dropped).
	first.RunOnce(ctx)
	st, err := first.Status(ctx, "ws1", job.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Pending) != 1 || st.Pending[0] != "content" || st.LastDoneAt == 0 || len(notify.calls) != 1 {
		t.Fatalf("after a pass with content down: %+v, notify calls %v", st, notify.calls)
	}
	// Another workspace cannot see the job.
	if _, err := first.Status(ctx, "ws2", job.ID); err == nil {
		t.Fatal("ws2 reads ws1's job")
	}

	// A new worker over the same store, content back: the job finishes
	// without redoing notify.
	content.down = false
	second := erasure.NewService(store.NewErasureJobs(db), map[string]erasure.Eraser{"content": content, "notify": notify}, nil)
	second.RunOnce(ctx)
	st, _ = second.Status(ctx, "ws1", job.ID)
	if len(st.Pending) != 0 || len(content.calls) != 1 || len(notify.calls) != 1 {
		t.Fatalf("after restart: %+v, content %v, notify %v", st, content.calls, notify.calls)
	}
	if got := content.calls[0]; got[0] != "ws1" || len(got) != 3 {
		t.Fatalf("content erased %v", got)
	}
	// Nothing is pending any more: a further pass calls nobody.
	second.RunOnce(ctx)
	if len(content.calls) != 1 || len(notify.calls) != 1 {
		t.Fatal("a finished job ran again")
	}
}
