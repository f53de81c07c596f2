package realtime

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// SessionCounter counts open document sessions per workspace and per
// document against the limits.
type SessionCounter interface {
	// Acquire counts one more session of key, or returns a *LimitError
	// when the workspace or the document is full. release undoes it.
	Acquire(ctx context.Context, key DocKey, maxWorkspace, maxDocument int) (release func(), err error)
}

// LimitError is a refused session.
type LimitError struct{ Reason string }

func (e *LimitError) Error() string { return e.Reason }

func limitReached(what string, max int) *LimitError {
	return &LimitError{Reason: fmt.Sprintf("%s connection limit reached (%d sessions)", what, max)}
}

// localCounter counts in process: right for a single replica.
type localCounter struct {
	mu     sync.Mutex
	perWS  map[string]int
	perDoc map[string]int
}

func newLocalCounter() *localCounter {
	return &localCounter{perWS: map[string]int{}, perDoc: map[string]int{}}
}

func (c *localCounter) Acquire(_ context.Context, key DocKey, maxWS, maxDoc int) (func(), error) {
	doc := key.id()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.perWS[key.Workspace] >= maxWS {
		return nil, limitReached("workspace", maxWS)
	}
	if c.perDoc[doc] >= maxDoc {
		return nil, limitReached("document", maxDoc)
	}
	c.perWS[key.Workspace]++
	c.perDoc[doc]++
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			if c.perWS[key.Workspace]--; c.perWS[key.Workspace] == 0 {
				delete(c.perWS, key.Workspace)
			}
			if c.perDoc[doc]--; c.perDoc[doc] == 0 {
				delete(c.perDoc, doc)
			}
		})
	}, nil
}

// RedisCounter counts over every replica: a Redis hash per workspace and
// per document holds each replica's count, and only the counts of replicas
// whose heartbeat key is alive are added up, so a replica that died stops
// counting within replicaTTL.
type RedisCounter struct {
	rdb     *redis.Client
	replica string
}

// NewRedisCounter returns a counter for this replica; Heartbeat must run.
func NewRedisCounter(rdb *redis.Client, replica string) *RedisCounter {
	return &RedisCounter{rdb: rdb, replica: replica}
}

const (
	replicaTTL     = 30 * time.Second
	heartbeatEvery = 10 * time.Second
	countersTTL    = 24 * time.Hour
)

func replicaKey(id string) string { return "rt:replica:" + id }

// acquireScript: KEYS = workspace hash, document hash; ARGV = replica,
// workspace limit, document limit, counters TTL (s). 1 = counted, 0 =
// workspace full, -1 = document full.
var acquireScript = redis.NewScript(`
local function live(key)
  local total = 0
  local kv = redis.call('HGETALL', key)
  for i = 1, #kv, 2 do
    if redis.call('EXISTS', 'rt:replica:' .. kv[i]) == 1 then
      total = total + tonumber(kv[i + 1])
    else
      redis.call('HDEL', key, kv[i])
    end
  end
  return total
end
if live(KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
if live(KEYS[2]) >= tonumber(ARGV[3]) then return -1 end
for i = 1, 2 do
  redis.call('HINCRBY', KEYS[i], ARGV[1], 1)
  redis.call('EXPIRE', KEYS[i], ARGV[4])
end
return 1
`)

func (c *RedisCounter) keys(key DocKey) []string {
	return []string{"rt:n:ws:" + key.Workspace, "rt:n:doc:" + key.channel()}
}

// Acquire implements SessionCounter.
func (c *RedisCounter) Acquire(ctx context.Context, key DocKey, maxWS, maxDoc int) (func(), error) {
	keys := c.keys(key)
	n, err := acquireScript.Run(ctx, c.rdb, keys, c.replica, maxWS, maxDoc, int(countersTTL.Seconds())).Int()
	if err != nil {
		return nil, fmt.Errorf("count sessions: %w", err)
	}
	switch n {
	case 0:
		return nil, limitReached("workspace", maxWS)
	case -1:
		return nil, limitReached("document", maxDoc)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			for _, k := range keys {
				_ = c.rdb.HIncrBy(ctx, k, c.replica, -1).Err()
			}
		})
	}, nil
}

// Heartbeat keeps this replica's counts alive until ctx ends.
func (c *RedisCounter) Heartbeat(ctx context.Context) {
	t := time.NewTicker(heartbeatEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			c.beat(ctx)
		}
	}
}

func (c *RedisCounter) beat(ctx context.Context) {
	_ = c.rdb.Set(ctx, replicaKey(c.replica), "1", replicaTTL).Err()
}
