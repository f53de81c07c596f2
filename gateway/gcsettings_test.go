package gateway

import (
	"context"
	"math"
	"runtime/debug"
	"testing"

	"github.com/opencollab/backend/pkg/config"
)

func TestGCSettingsParseAsTheRuntime(t *testing.T) {
	percents := map[string]int{"": 100, "off": -1, "0": 0, " 400 ": 400}
	for in, want := range percents {
		if got, err := parseGCPercent(in); err != nil || got != want {
			t.Errorf("GOGC %q: %d, %v; want %d", in, got, err, want)
		}
	}
	limits := map[string]int64{"": math.MaxInt64, "off": math.MaxInt64, "1024": 1024, "3B": 3,
		"2KiB": 2 << 10, "512MiB": 512 << 20, "1GiB": 1 << 30, "1TiB": 1 << 40}
	for in, want := range limits {
		if got, err := parseMemoryLimit(in); err != nil || got != want {
			t.Errorf("GOMEMLIMIT %q: %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"-1", "x", "1.5"} {
		if _, err := parseGCPercent(bad); err == nil {
			t.Errorf("GOGC %q accepted", bad)
		}
	}
	for _, bad := range []string{"-1", "1MB", "MiB", "9999999TiB"} {
		if _, err := parseMemoryLimit(bad); err == nil {
			t.Errorf("GOMEMLIMIT %q accepted", bad)
		}
	}
}

// The binary's defaults reach the runtime: GOGC 400 and a 512 MiB soft
// limit; a bad value is a configuration error.
func TestApplyGCSetsTheDefaults(t *testing.T) {
	var c Config
	if err := config.Defaults(context.Background(), &c); err != nil {
		t.Fatal(err)
	}
	prevPercent, prevLimit := debug.SetGCPercent(100), debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetGCPercent(prevPercent); debug.SetMemoryLimit(prevLimit) })
	ApplyGC(c)
	if got := debug.SetGCPercent(100); got != 400 {
		t.Errorf("GC percent %d, want 400", got)
	}
	if got := debug.SetMemoryLimit(-1); got != 512<<20 {
		t.Errorf("memory limit %d, want 512 MiB", got)
	}
	c.RedisURL, c.InternalSecret, c.GCPercent, c.MemoryLimit = "redis://x", "0123456789abcdef", "lots", "1MB"
	if err := c.Validate(); err == nil {
		t.Error("bad GOGC and GOMEMLIMIT pass Validate")
	}
}
