package main

import (
	"strings"
	"testing"
	"time"
)

func TestGoalLinesSayWhichGoalsARunMet(t *testing.T) {
	t.Parallel()
	hp := result{memPerConn: 36 << 10, p99: 4 * time.Millisecond, sustained: 10000}
	met := result{memPerConn: 10 << 10, p99: 4 * time.Millisecond, sustained: 25000}
	missed := result{memPerConn: 20 << 10, p99: 5 * time.Millisecond, sustained: 18600}
	for _, tc := range []struct {
		name string
		ours result
		want []string
	}{
		{"met", met, []string{"0.28× Hocuspocus's (goal ≤ 0.5: met)", "1.00× Hocuspocus's (goal ≤ 1.0: met)", "2.50× Hocuspocus's (goal ≥ 2.0: met)"}},
		{"missed", missed, []string{"0.56× Hocuspocus's (goal ≤ 0.5: MISSED)", "1.25× Hocuspocus's (goal ≤ 1.0: MISSED)", "1.86× Hocuspocus's (goal ≥ 2.0: MISSED)"}},
	} {
		lines := goalLines([]result{tc.ours, hp})
		if len(lines) != len(tc.want) {
			t.Fatalf("%s: %d lines, want %d", tc.name, len(lines), len(tc.want))
		}
		for i, w := range tc.want {
			if !strings.HasSuffix(lines[i], w) {
				t.Errorf("%s: line %q, want it to end %q", tc.name, lines[i], w)
			}
		}
	}
	if lines := goalLines([]result{met}); lines != nil {
		t.Errorf("one server measured: %q, want no goal lines", lines)
	}
	if lines := goalLines([]result{met, {}}); !strings.HasSuffix(lines[2], "MISSED)") {
		t.Errorf("Hocuspocus measured nothing: %q, want the goal missed, not met by a zero", lines[2])
	}
}
