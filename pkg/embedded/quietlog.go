package embedded

import (
	"context"
	"log/slog"
	"os"
	"strings"
)

// quietLogger keeps FerretDB's warnings and errors but not its info chatter.
func quietLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// dropFailedResponses filters FerretDB's per-command response dumps at WARN.
// FerretDB logs every failed command that way (each driver Disconnect's
// unsupported endSessions, every duplicate-key insert), with the full reply
// including key values. The client already gets the error, so at WARN the
// dump is noise that may carry customer data. Debug dumps and error-level
// dumps (connection closed) pass through.
type dropFailedResponses struct {
	slog.Handler
}

func (h dropFailedResponses) Handle(ctx context.Context, r slog.Record) error {
	if r.Level == slog.LevelWarn && strings.HasPrefix(r.Message, "Response ") {
		return nil
	}
	return h.Handler.Handle(ctx, r)
}

func (h dropFailedResponses) WithAttrs(attrs []slog.Attr) slog.Handler {
	return dropFailedResponses{h.Handler.WithAttrs(attrs)}
}

func (h dropFailedResponses) WithGroup(name string) slog.Handler {
	return dropFailedResponses{h.Handler.WithGroup(name)}
}
