package realtime

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/opencollab/backend/pkg/embedded"
	"github.com/opencollab/backend/pkg/redisdb"
	"github.com/opencollab/backend/pkg/testenv"
)

// Sessions racing on two replicas for a document's places get exactly
// the limit; a released place goes to the next one; a dead replica's
// sessions no longer count.
func TestRedisCounterLimitAcrossReplicas(t *testing.T) {
	t.Parallel()
	rdb := testenv.Redis(t)
	ctx := context.Background()
	one, two := NewRedisCounter(rdb, "one-"+t.Name()), NewRedisCounter(rdb, "two-"+t.Name())
	one.beat(ctx)
	two.beat(ctx)
	key := DocKey{"ws-" + t.Name(), "org1", "doc1", "ed1"}
	const limit = 10
	var admitted atomic.Int32
	var releases sync.Map
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			c := one
			if i%2 == 1 {
				c = two
			}
			release, err := c.Acquire(ctx, key, 1000, limit)
			if err == nil {
				admitted.Add(1)
				releases.Store(i, release)
			} else if _, ok := err.(*LimitError); !ok {
				t.Errorf("acquire: %v", err)
			}
		})
	}
	wg.Wait()
	if n := admitted.Load(); n != limit {
		t.Fatalf("%d sessions admitted, want the limit %d", n, limit)
	}
	releases.Range(func(_, r any) bool { r.(func())(); return false }) // one place freed
	if _, err := two.Acquire(ctx, key, 1000, limit); err != nil {
		t.Fatalf("the freed place was refused: %v", err)
	}
	if _, err := one.Acquire(ctx, key, 1000, limit); err == nil {
		t.Fatal("a session over the limit was admitted")
	}
	// Replica two dies: its heartbeat goes, and its sessions stop counting.
	if err := rdb.Del(ctx, replicaKey(two.replica)).Err(); err != nil {
		t.Fatal(err)
	}
	if _, err := one.Acquire(ctx, key, 1000, limit); err != nil {
		t.Fatalf("a dead replica's sessions still count: %v", err)
	}
	if _, err := one.Acquire(ctx, key, limit, 1000); err != nil {
		t.Fatalf("workspace limit: %v", err)
	}
}

// maxAcquireGarbage bounds what counting one session allocates, client
// and embedded Redis together: a Lua script run by the embedded Redis
// (a fresh interpreter each) made some 200 KiB per connection.
const maxAcquireGarbage = 24 << 10

func TestRedisCounterGarbagePerAcquire(t *testing.T) {
	rdb := embeddedRedis(t)
	ctx := context.Background()
	c := NewRedisCounter(rdb, "replica1")
	c.beat(ctx)
	key := DocKey{"ws1", "org1", "doc1", "ed1"}
	if _, err := c.Acquire(ctx, key, 1000, 1000); err != nil { // warm: connection, first keys
		t.Fatal(err)
	}
	const n = 200
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	for range n {
		if _, err := c.Acquire(ctx, key, 1000, 1000); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&m1)
	per := (m1.TotalAlloc - m0.TotalAlloc) / n
	t.Logf("one acquire: %d bytes in %d allocations (client and embedded Redis)", per, (m1.Mallocs-m0.Mallocs)/n)
	if per > maxAcquireGarbage {
		t.Fatalf("counting a session allocates %d bytes, want at most %d", per, maxAcquireGarbage)
	}
}

// A burst of sessions counted at once opens no more Redis connections than
// countingTurns (the pool keeps each, with its buffers, once opened).
func TestRedisCounterBurstKeepsThePoolSmall(t *testing.T) {
	t.Parallel()
	rdb := testenv.Redis(t)
	ctx := context.Background()
	c := NewRedisCounter(rdb, "one-"+t.Name())
	c.beat(ctx)
	before := rdb.PoolStats().TotalConns
	var wg sync.WaitGroup
	for i := range 100 {
		wg.Go(func() {
			key := DocKey{"ws-" + t.Name(), "org1", "doc" + string(rune('a'+i%20)), "ed1"}
			if _, err := c.Acquire(ctx, key, 1000, 1000); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if opened := rdb.PoolStats().TotalConns - before; opened > countingTurns {
		t.Fatalf("a burst of 100 sessions opened %d Redis connections, want at most %d", opened, countingTurns)
	}
}

// embeddedRedis is an in-process Redis of the test's own, as the
// single-process system runs.
func embeddedRedis(t *testing.T) *redis.Client {
	t.Helper()
	url, stop, err := embedded.StartRedis()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	rdb, err := redisdb.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rdb.Close() })
	return rdb
}
