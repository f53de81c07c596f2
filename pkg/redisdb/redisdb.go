// Package redisdb connects services to Redis with tracing.
package redisdb

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/extra/redisotel/v9"
	"github.com/redis/go-redis/v9"
)

// pingTimeout bounds start-up so an unreachable Redis fails fast.
const pingTimeout = 5 * time.Second

// Instrument traces every command of client as a child of the caller's
// span, with the statement reduced to command and key patterns.
func Instrument(client *redis.Client) error {
	if err := redisotel.InstrumentTracing(client, redisotel.WithDBStatement(false)); err != nil {
		return fmt.Errorf("redisdb: tracing: %w", err)
	}
	client.AddHook(statementHook{})
	return nil
}

// Connect parses a redis:// (or rediss://) URL, traces every command as a
// child of the caller's span and pings before returning.
func Connect(ctx context.Context, url string) (*redis.Client, error) {
	opts, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("redisdb: parse url: %w", err)
	}
	client := redis.NewClient(opts)
	if err := Instrument(client); err != nil {
		_ = client.Close()
		return nil, err
	}
	pctx, cancel := context.WithTimeout(ctx, pingTimeout)
	defer cancel()
	if err := client.Ping(pctx).Err(); err != nil {
		_ = client.Close()
		return nil, fmt.Errorf("redisdb: ping %s: %w", opts.Addr, err)
	}
	return client, nil
}
