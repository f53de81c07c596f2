package realtime

import (
	"slices"
	"sync"
	"testing"

	"github.com/redis/go-redis/v9"
)

// recordingInvalidator records the users whose access decisions were
// dropped.
type recordingInvalidator struct {
	mu    sync.Mutex
	users []string
}

func (r *recordingInvalidator) Invalidate(workspace, user string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.users = append(r.users, workspace+"/"+user)
}

// An access_removed event re-decides every user it names: one (userId, the
// shape of one event per user) or a batch (userIds, users/delete).
func TestAccessEventNamesOneUserOrABatch(t *testing.T) {
	t.Parallel()
	hub := NewHub(Options{Store: NewMemoryStore(), Access: fakeAccess{}})
	inv := &recordingInvalidator{}
	for _, data := range []string{`{"userId":"u1"}`, `{"userIds":["u2","u3"]}`, `{}`} {
		raw := `{"type":"identity.access_removed","workspaceId":"ws","data":` + data + `}`
		hub.accessEvent(redis.XMessage{ID: "1-1", Values: map[string]any{"event": raw}}, inv)
	}
	if want := []string{"ws/u1", "ws/u2", "ws/u3"}; !slices.Equal(inv.users, want) {
		t.Fatalf("invalidated %v, want %v", inv.users, want)
	}
}
