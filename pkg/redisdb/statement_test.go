package redisdb

import (
	"context"
	"testing"

	"github.com/redis/go-redis/v9"
)

func TestStatement(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		cmd  redis.Cmder
		want string
	}{
		{redis.NewStringCmd(ctx, "get", "cred:ak_7f3a9b"), "GET cred:*"},
		{redis.NewStringCmd(ctx, "xadd", "events:activity", "*", "payload", `{"email":"ann@example.com"}`), "XADD events:activity"},
		{redis.NewStringCmd(ctx, "set", "user:ann@example.com", "secret"), "SET user:*"},
		{redis.NewXStreamSliceCmd(ctx, "xreadgroup", "group", "g", "c", "count", 10, "streams", "events:notify", "events:content", ">", ">"), "XREADGROUP events:notify events:content"},
		{redis.NewIntCmd(ctx, "del", "page:Ab12", "page:Cd34"), "DEL page:* page:*"},
		{redis.NewStatusCmd(ctx, "ping"), "PING"},
		{redis.NewCmd(ctx, "evalsha", "abc", 1, "ratelimit:key"), "EVALSHA"},
	}
	for _, tt := range tests {
		if got := Statement(tt.cmd); got != tt.want {
			t.Errorf("Statement(%v) = %q, want %q", tt.cmd.Args(), got, tt.want)
		}
	}
}
