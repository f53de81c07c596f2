package svccontent

import (
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-content/internal/crdt"
	"github.com/opencollab/backend/svc-content/internal/realtime"
	"github.com/opencollab/backend/svc-content/realtimetest"
)

// Two replicas, each with its own CRDT service on one database, whose
// fan-out never reaches the other (each on its own Redis): stock clients
// on either converge through the rooms' catch-ups, which read only the
// log entries of the other replica (their own are not read back).
func TestReplicasConvergeThroughTheCatchUpAlone(t *testing.T) {
	t.Parallel()
	db := testenv.Mongo(t)
	one := catchUpReplica(t, db, testenv.Redis(t))
	two := catchUpReplica(t, db, testenv.OtherRedis(t))
	p := realtimetest.Start(t, "sites", map[string]any{
		"wsBases": []string{one, two}, "room": "org1/catchup/ed1", "tokens": []string{"ada", "bob"},
	})
	p.WaitStep("synced")
	p.Send("go")
	p.Result()
}

// catchUpReplica serves a hub over its own CRDT service on db that
// catches up every 300 ms.
func catchUpReplica(t *testing.T, db *mongo.Database, rdb *redis.Client) string {
	t.Helper()
	svc := crdt.NewService(db, nil, crdt.Settings{})
	t.Cleanup(svc.Wait)
	if err := svc.EnsureIndexes(t.Context()); err != nil {
		t.Fatal(err)
	}
	hub := realtime.NewHub(realtime.Options{
		Store: crdtStore{svc}, Access: editorAccess{}, Redis: rdb,
		Settings: realtime.Settings{CatchUpInterval: 300 * time.Millisecond},
	})
	return strings.TrimSuffix(serveYWebsocket(t, hub), "/v2/crdt/sync")
}
