package redisdb

import (
	"context"
	"strings"

	"github.com/redis/go-redis/v9"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
)

// statementHook records each command's span statement as the command and
// the pattern of its keys ("XADD events:*", "GET cred:*"): values and the
// variable parts of keys hold customer data (event bodies, e-mail
// addresses, ids) that must not reach telemetry. It runs inside the
// tracing hook, whose span is in the context it gets.
type statementHook struct{}

func (statementHook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (statementHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if span := trace.SpanFromContext(ctx); span.IsRecording() {
			span.SetAttributes(attribute.String("db.statement", Statement(cmd)))
		}
		return next(ctx, cmd)
	}
}

func (statementHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		if span := trace.SpanFromContext(ctx); span.IsRecording() {
			parts := make([]string, len(cmds))
			for i, c := range cmds {
				parts[i] = Statement(c)
			}
			span.SetAttributes(attribute.String("db.statement", strings.Join(parts, "\n")))
		}
		return next(ctx, cmds)
	}
}

// Statement is cmd's name and key patterns, without values.
func Statement(cmd redis.Cmder) string {
	name := strings.ToUpper(cmd.Name())
	keys := commandKeys(name, cmd.Args())
	if len(keys) == 0 {
		return name
	}
	for i, k := range keys {
		keys[i] = KeyPattern(k)
	}
	return name + " " + strings.Join(keys, " ")
}

// commandKeys picks the key arguments of the commands we use: the streams
// of XREAD/XREADGROUP, every argument of the multi-key reads and deletes,
// else the first argument.
func commandKeys(name string, args []any) []string {
	switch name {
	case "PING", "SCRIPT", "EVALSHA", "EVAL", "HELLO", "CLIENT", "INFO", "FLUSHALL", "FLUSHDB":
		return nil
	case "XREAD", "XREADGROUP":
		for i, a := range args {
			if s, _ := a.(string); strings.EqualFold(s, "STREAMS") {
				streams := args[i+1:]
				return strs(streams[:len(streams)/2])
			}
		}
		return nil
	case "MGET", "DEL", "UNLINK", "EXISTS":
		return strs(args[1:])
	}
	if len(args) < 2 {
		return nil
	}
	return strs(args[1:2])
}

func strs(args []any) []string {
	out := make([]string, 0, len(args))
	for _, a := range args {
		if s, ok := a.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// KeyPattern keeps a key's fixed segments (short lower-case words such as
// "events", "cred", "ratelimit") and replaces the others with "*".
func KeyPattern(key string) string {
	segs := strings.Split(key, ":")
	for i, s := range segs {
		if !isWord(s) {
			segs[i] = "*"
		}
	}
	return strings.Join(segs, ":")
}

func isWord(s string) bool {
	if s == "" || len(s) > 24 {
		return false
	}
	for _, r := range s {
		if (r < 'a' || r > 'z') && r != '-' && r != '_' {
			return false
		}
	}
	return true
}
