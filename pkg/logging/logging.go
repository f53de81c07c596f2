// Package logging builds the JSON slog logger every service uses.
package logging

import (
	"io"
	"log/slog"
	"strings"
)

// New returns a JSON logger writing to w at level, tagging every record with
// the service name and, when the record's context carries a valid
// OpenTelemetry span, its trace and span ids so logs join up with traces.
// With service "" (a process hosting several services) each record is
// tagged with the service its context belongs to, if any.
func New(w io.Writer, level slog.Level, service string) *slog.Logger {
	h := slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level})
	l := slog.New(NewTraceHandler(h))
	if service != "" {
		l = l.With(slog.String(ServiceKey, service))
	}
	return l
}

// ServiceKey is the attribute naming the service; a record has it once.
const ServiceKey = "service"

// ParseLevel maps debug|info|warn|error (any case) to a slog level. Anything
// else yields info: a typo in config should not silence or flood the logs.
func ParseLevel(s string) slog.Level {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "debug":
		return slog.LevelDebug
	case "warn", "warning":
		return slog.LevelWarn
	case "error":
		return slog.LevelError
	default:
		return slog.LevelInfo
	}
}
