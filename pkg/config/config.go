// Package config reads a service's configuration from the environment into
// one struct, validates it, and logs it with secrets masked.
//
// Fields use go-envconfig tags (`env:"NAME, default=x"`); a field tagged
// `mask:"true"` is logged as "***" (or "" when unset).
package config

import (
	"context"
	"fmt"
	"log/slog"
	"reflect"
	"strings"

	"github.com/sethvargo/go-envconfig"
)

// Validator is implemented by config structs that check themselves.
type Validator interface {
	Validate() error
}

// Load fills cfg (a pointer to a struct) from the process environment and
// validates it.
func Load(ctx context.Context, cfg any) error {
	return LoadFrom(ctx, cfg, envconfig.OsLookuper())
}

// LoadFrom is Load with an explicit source, for tests and for hosting
// several services in one process.
func LoadFrom(ctx context.Context, cfg any, l envconfig.Lookuper) error {
	if err := envconfig.ProcessWith(ctx, &envconfig.Config{Target: cfg, Lookuper: l}); err != nil {
		return fmt.Errorf("read configuration: %w", err)
	}
	if v, ok := cfg.(Validator); ok {
		if err := v.Validate(); err != nil {
			return fmt.Errorf("invalid configuration: %w", err)
		}
	}
	return nil
}

// Read fills cfg from l (nil: defaults only) without validating it, for a
// host that sets some fields itself before the service validates.
func Read(ctx context.Context, cfg any, l envconfig.Lookuper) error {
	if l == nil {
		l = envconfig.MapLookuper(nil)
	}
	if err := envconfig.ProcessWith(ctx, &envconfig.Config{Target: cfg, Lookuper: l}); err != nil {
		return fmt.Errorf("read configuration: %w", err)
	}
	return nil
}

// Defaults fills cfg with its declared defaults only (no environment).
func Defaults(ctx context.Context, cfg any) error {
	return envconfig.ProcessWith(ctx, &envconfig.Config{Target: cfg, Lookuper: envconfig.MapLookuper(nil)})
}

// Log writes cfg as one record, secrets masked, with any further attributes.
func Log(ctx context.Context, logger *slog.Logger, msg string, cfg any, attrs ...any) {
	logger.InfoContext(ctx, msg, append([]any{"config", Masked(cfg)}, attrs...)...)
}

// Masked returns cfg as a map of env names to printable values with every
// `mask:"true"` field hidden.
func Masked(cfg any) map[string]string {
	out := map[string]string{}
	collect(reflect.Indirect(reflect.ValueOf(cfg)), out)
	return out
}

func collect(v reflect.Value, out map[string]string) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f, fv := t.Field(i), v.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("env"), ",")
		if name == "" {
			if fv.Kind() == reflect.Struct {
				collect(fv, out)
			}
			continue
		}
		val := fmt.Sprint(fv.Interface())
		if f.Tag.Get("mask") == "true" && val != "" {
			val = "***"
		}
		out[name] = val
	}
}
