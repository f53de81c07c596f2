package main

import (
	"fmt"
	"os"
	"os/exec"
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
	rounds := met
	rounds.rounds = []float64{30000, 19000}
	hpRounds := hp
	hpRounds.rounds = []float64{10000, 10000}
	if lines := goalLines([]result{rounds, hpRounds}); !strings.HasSuffix(lines[2], "met; round by round 3.00 / 1.90)") {
		t.Errorf("two rounds: %q, want the whole run's verdict and each round's ratio", lines[2])
	}
	if lines := goalLines([]result{met}); lines != nil {
		t.Errorf("one server measured: %q, want no goal lines", lines)
	}
	if lines := goalLines([]result{met, {}}); !strings.HasSuffix(lines[2], "MISSED)") {
		t.Errorf("Hocuspocus measured nothing: %q, want the goal missed, not met by a zero", lines[2])
	}
	lostHP := hpRounds
	lostHP.lost = 1000
	for _, l := range goalLines([]result{rounds, lostHP}) {
		if !strings.Contains(l, "not judged, connections failed or lost: ours 0, Hocuspocus 1000") {
			t.Errorf("Hocuspocus lost its connections: %q, want no verdict", l)
		}
	}
}

// The servers take turns: in order in the first round, reversed in the
// next, so a machine growing faster or slower over the run favours
// neither.
func TestSaturationRoundsAlternateTheServers(t *testing.T) {
	t.Parallel()
	got := fmt.Sprint(roundOrder(3, 2))
	if want := "[[0 1] [1 0] [0 1]]"; got != want {
		t.Errorf("order of 3 rounds of 2 servers %s, want %s", got, want)
	}
	if got, want := fmt.Sprint(roundOrder(0, 1)), "[[0]]"; got != want {
		t.Errorf("rounds 0: %s, want %s (at least one)", got, want)
	}
}

// The CPU a waiting server uses while another saturates is counted to
// the waiting one (this test process stands in for it), never to the
// one saturating.
func TestIdleMeterCountsTheWaitingServer(t *testing.T) {
	self, err := os.FindProcess(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	waiting := &session{s: &server{cmd: &exec.Cmd{Process: self}}}
	busy := &session{s: &server{}}
	idleDuring([]*session{busy, waiting}, 0, func() {
		// Spin until the process has used 100 ms of CPU (not of wall time:
		// on a loaded machine that may be far less CPU).
		start := waiting.s.cpuTime()
		for end := time.Now().Add(10 * time.Second); waiting.s.cpuTime()-start < 100*time.Millisecond && time.Now().Before(end); {
		}
	})
	if waiting.res.idleCPU < 100*time.Millisecond {
		t.Errorf("waiting server used %s while spinning 100 ms of CPU, want it counted", waiting.res.idleCPU)
	}
	if busy.res.idleCPU != 0 {
		t.Errorf("saturating server counted %s as idle CPU, want 0", busy.res.idleCPU)
	}
}

// A saturation phase waits until every server has been quiet for the
// time asked: here the stand-in server (this process) spins for a
// while, and the wait ends only after it stopped.
func TestWaitQuietWaitsOutABusyServer(t *testing.T) {
	self, err := os.FindProcess(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	ss := []*session{{s: &server{cmd: &exec.Cmd{Process: self}}}}
	const busy, quiet = 1500 * time.Millisecond, 500 * time.Millisecond
	start := time.Now()
	go func() {
		for time.Since(start) < busy {
		}
	}()
	if !waitQuiet(ss, quiet, 10*time.Second) {
		t.Fatal("never quiet")
	}
	if waited := time.Since(start); waited < busy+quiet {
		t.Errorf("waited %s, want at least the busy %s and then the quiet %s", waited, busy, quiet)
	}
	if waitQuiet([]*session{{s: &server{cmd: &exec.Cmd{Process: self}}}}, 3*time.Second, time.Second) {
		t.Error("quiet for 3 s within 1 s, want false")
	}
}
