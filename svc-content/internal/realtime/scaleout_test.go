package realtime

import (
	"context"
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-content/realtimetest"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// Two replicas share a store and a Redis: clients on different replicas
// converge through the fan-out, and keep converging after the replicas'
// Redis connections were cut (what was published meanwhile is lost; the
// rooms catch up from the store).
func TestReplicasConvergeThroughRedisAndAfterLosingIt(t *testing.T) {
	t.Parallel()
	rdb := testenv.Redis(t)
	store := NewMemoryStore()
	s := Settings{CatchUpInterval: time.Second}
	one := startServer(t, store, rdb, s)
	two := startServer(t, store, testenv.Redis(t), s)
	p := realtimetest.Start(t, "sites", map[string]any{
		"wsBases": []string{one.wsBase, two.wsBase}, "room": "org1/scale/ed1", "tokens": []string{"editor:ada", "editor:bob"},
	})
	p.WaitStep("synced")
	if err := rdb.ClientKillByFilter(context.Background(), "TYPE", "pubsub").Err(); err != nil {
		t.Fatalf("cut the pub/sub connections: %v", err)
	}
	p.Send("go")
	p.Result()
}

// Two replicas whose fan-out never reaches each other (each on its own
// Redis) still converge: every room catches up from the shared store.
func TestReplicasThatMissEveryFanOutStillConverge(t *testing.T) {
	t.Parallel()
	other := testenv.OtherRedis(t)
	store := NewMemoryStore()
	s := Settings{CatchUpInterval: 300 * time.Millisecond}
	one := startServer(t, store, testenv.Redis(t), s)
	two := startServer(t, store, other, s)
	p := realtimetest.Start(t, "sites", map[string]any{
		"wsBases": []string{one.wsBase, two.wsBase}, "room": "org1/scale2/ed1", "tokens": []string{"editor:ada", "editor:bob"},
	})
	p.WaitStep("synced")
	p.Send("go")
	p.Result()
}
