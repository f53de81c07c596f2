package embedded

import (
	"bytes"
	"log/slog"
	"testing"
)

func TestDropFailedResponses(t *testing.T) {
	tests := []struct {
		name  string
		level slog.Level
		msg   string
		kept  bool
	}{
		{"failed reply dump", slog.LevelWarn, "Response message:\n{...}", false},
		{"failed reply header", slog.LevelWarn, "Response header: length: 1", false},
		{"closed-connection dump", slog.LevelError, "Response message:\n{...}", true},
		{"debug dump", slog.LevelDebug, "Response message:\n{...}", true},
		{"other warning", slog.LevelWarn, "disk almost full", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			base := slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})
			l := slog.New(dropFailedResponses{base}).With("name", "conn")
			l.Log(t.Context(), tt.level, tt.msg)
			if kept := buf.Len() > 0; kept != tt.kept {
				t.Fatalf("kept = %v, want %v (%q)", kept, tt.kept, buf.String())
			}
		})
	}
}
