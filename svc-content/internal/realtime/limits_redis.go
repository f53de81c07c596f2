package realtime

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// RedisCounter counts over every replica: a Redis hash per workspace and
// per document holds each replica's count, and only the counts of replicas
// whose heartbeat key is alive are added up, so a replica that died stops
// counting within replicaTTL.
type RedisCounter struct {
	rdb     *redis.Client
	replica string
	// turns bounds the counting transactions under way. Each holds a
	// pooled connection with 64 KiB of buffers, which the pool keeps once
	// it opened it: a burst of connecting clients, unbounded, grew the pool
	// to its limit for good.
	turns chan struct{}
}

// countingTurns is how many counting transactions run at once: each takes
// one round trip, so a few keep up with thousands of connections a second.
const countingTurns = 4

// NewRedisCounter returns a counter for this replica; Heartbeat must run.
func NewRedisCounter(rdb *redis.Client, replica string) *RedisCounter {
	return &RedisCounter{rdb: rdb, replica: replica, turns: make(chan struct{}, countingTurns)}
}

const (
	replicaTTL     = 30 * time.Second
	heartbeatEvery = 10 * time.Second
	countersTTL    = 24 * time.Hour
)

func replicaKey(id string) string { return "rt:replica:" + id }

func (c *RedisCounter) keys(key DocKey) [2]string {
	return [2]string{"rt:n:ws:" + key.Workspace, "rt:n:doc:" + key.channel()}
}

// Acquire implements SessionCounter. The session is counted and both
// counts read back in one transaction (MULTI/EXEC), and a count over its
// limit is taken back. Transactions run one at a time, so of sessions
// racing for a document's last place exactly one reads a count within the
// limit. No Lua script: the embedded Redis of the single-process system
// runs each script in a fresh interpreter, some 200 KiB of garbage per
// connection, which grew the process's heap during connection bursts.
// The transaction runs on a connection of the client's regular pool: its
// pipeline pool's buffers are 128 KiB each way, and a burst of connections
// would open up to ten of them.
func (c *RedisCounter) Acquire(ctx context.Context, key DocKey, maxWS, maxDoc int) (func(), error) {
	select {
	case c.turns <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("count sessions: %w", ctx.Err())
	}
	defer func() { <-c.turns }()
	keys := c.keys(key)
	rc := c.rdb.Conn()
	defer rc.Close()
	var counts [2]*redis.MapStringStringCmd
	_, err := rc.TxPipelined(ctx, func(p redis.Pipeliner) error {
		for _, k := range keys {
			p.HIncrBy(ctx, k, c.replica, 1)
			p.Expire(ctx, k, countersTTL)
		}
		counts[0], counts[1] = p.HGetAll(ctx, keys[0]), p.HGetAll(ctx, keys[1])
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("count sessions: %w", err)
	}
	totals, err := c.liveTotals(ctx, rc, keys, [2]map[string]string{counts[0].Val(), counts[1].Val()})
	switch {
	case err != nil:
		c.uncount(ctx, rc, keys)
		return nil, fmt.Errorf("count sessions: %w", err)
	case totals[0] > maxWS:
		c.uncount(ctx, rc, keys)
		return nil, limitReached("workspace", maxWS)
	case totals[1] > maxDoc:
		c.uncount(ctx, rc, keys)
		return nil, limitReached("document", maxDoc)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			c.uncount(ctx, c.rdb, keys)
		})
	}, nil
}

// uncount takes a session back. A refused session is taken back on the
// connection that counted it: another from the pool could be a long wait
// while a burst of connections holds them all.
func (c *RedisCounter) uncount(ctx context.Context, rdb redis.Cmdable, keys [2]string) {
	for _, k := range keys {
		_ = rdb.HIncrBy(ctx, k, c.replica, -1).Err()
	}
}

// liveTotals adds up the counts of each hash over the live replicas, and
// drops the fields of dead ones. This replica is alive; the others'
// heartbeats are read only when a hash has their fields.
func (c *RedisCounter) liveTotals(ctx context.Context, rc *redis.Conn, keys [2]string, counts [2]map[string]string) ([2]int, error) {
	var others []string
	for _, m := range counts {
		for r := range m {
			if r != c.replica && !slices.Contains(others, r) {
				others = append(others, r)
			}
		}
	}
	alive, err := c.alive(ctx, rc, others)
	if err != nil {
		return [2]int{}, err
	}
	var totals [2]int
	for i, m := range counts {
		for r, v := range m {
			if r != c.replica && !alive[r] {
				_ = rc.HDel(ctx, keys[i], r).Err() // a dead replica's leftover
				continue
			}
			n, _ := strconv.Atoi(v)
			totals[i] += n
		}
	}
	return totals, nil
}

// alive reads the heartbeats of replicas; nil when there are none to read.
func (c *RedisCounter) alive(ctx context.Context, rc *redis.Conn, replicas []string) (map[string]bool, error) {
	if len(replicas) == 0 {
		return nil, nil
	}
	cmds := make([]*redis.IntCmd, len(replicas))
	_, err := rc.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, r := range replicas {
			cmds[i] = p.Exists(ctx, replicaKey(r))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	alive := make(map[string]bool, len(replicas))
	for i, r := range replicas {
		alive[r] = cmds[i].Val() == 1
	}
	return alive, nil
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
