package gateway

import (
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"strconv"
	"strings"
)

// The gateway's garbage is per request and small (a few hundred bytes),
// its live heap a few MiB, so with Go's GOGC=100 the collector runs every
// few thousand requests and was ~7 % of the gateway's instructions per
// request. GOGC=400 lets the heap grow to five times the live heap before
// a cycle (tens of MiB here) and cuts that to about a quarter; the soft
// memory limit keeps a large live heap (many realtime tunnels) from
// growing five-fold: near it the runtime collects as often as needed.
// Both are the runtime's own variables: an operator's value wins.

// ApplyGC sets the process's GC target and soft memory limit from c (the
// binary's main calls it once, after Validate); an empty value leaves the
// runtime's as it is. It is the process's setting: a host of several
// services in one process (make run) does not call it.
func ApplyGC(c Config) {
	if p, err := parseGCPercent(c.GCPercent); err == nil && c.GCPercent != "" {
		debug.SetGCPercent(p)
	}
	if l, err := parseMemoryLimit(c.MemoryLimit); err == nil && c.MemoryLimit != "" {
		debug.SetMemoryLimit(l)
	}
}

// parseGCPercent reads GOGC as the runtime does: "off" or a percentage;
// "" is Go's default.
func parseGCPercent(s string) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 100, nil
	}
	if s == "off" {
		return -1, nil
	}
	p, err := strconv.Atoi(s)
	if err != nil || p < 0 {
		return 0, fmt.Errorf("GOGC: %q is neither off nor a percentage >= 0", s)
	}
	return p, nil
}

var byteUnits = []struct {
	suffix string
	shift  uint
}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}, {"B", 0}}

// parseMemoryLimit reads GOMEMLIMIT as the runtime does: "off" or bytes
// with an optional B, KiB, MiB, GiB or TiB suffix; "" is Go's default (off).
func parseMemoryLimit(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "off" {
		return math.MaxInt64, nil
	}
	num, shift := s, uint(0)
	for _, u := range byteUnits {
		if strings.HasSuffix(s, u.suffix) {
			num, shift = strings.TrimSuffix(s, u.suffix), u.shift
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 0 || n > math.MaxInt64>>shift {
		return 0, errors.New("GOMEMLIMIT: want off or bytes with an optional B, KiB, MiB, GiB or TiB suffix")
	}
	return n << shift, nil
}
