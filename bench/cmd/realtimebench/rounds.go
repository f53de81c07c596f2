package main

import (
	"fmt"
	"os"
	"strings"
	"time"
)

// saturationRounds runs o.rounds saturation phases of o.sat per server,
// alternating the servers in the order A B, B A, A B, ... so that a
// machine speeding up or slowing down during the run weighs on both
// alike, each phase starting once every server is quiet (see waitQuiet).
// A server's sustained rate is all its rounds' acknowledged updates over
// their total length.
func saturationRounds(o options, ss []*session) {
	for i, order := range roundOrder(o.rounds, len(ss)) {
		for _, j := range order {
			if !waitQuiet(ss, o.quiet, quietWithin) {
				fmt.Fprintf(os.Stderr, "realtimebench: a server still busy %s after the previous phase; round %d starts anyway\n", quietWithin, i+1)
			}
			idleDuring(ss, j, func() { ss[j].saturateRound(o, i) })
		}
	}
}

// idleDuring runs phase, a saturation phase of server busy, and adds the
// CPU each other server used meanwhile to its idleCPU: what a waiting
// server took from the phase.
func idleDuring(ss []*session, busy int, phase func()) {
	meters := make([]cpuMeter, len(ss))
	for i, s := range ss {
		meters[i] = startCPU(s.s)
	}
	phase()
	for i, s := range ss {
		if i != busy {
			s.res.idleCPU += meters[i].stop().server
		}
	}
}

// roundOrder is, per round, the order in which the n servers saturate:
// 0..n-1 in even rounds, reversed in odd ones (at least one round).
func roundOrder(rounds, n int) [][]int {
	out := make([][]int, max(rounds, 1))
	for i := range out {
		for j := range n {
			if i%2 == 1 {
				j = n - 1 - j
			}
			out[i] = append(out[i], j)
		}
	}
	return out
}

// saturateRound runs one saturation phase and adds it to the session's
// result; profiles (-cpuprofile, -profile) cover the first round only.
func (ss *session) saturateRound(o options, round int) {
	stopProfile, stopServerProfile := func() {}, func() {}
	if round == 0 {
		stopProfile = startProfile(o.cpuProfile, ss.key+"-saturated")
		stopServerProfile = ss.s.profile(o.profile, "saturation", o.sat)
	}
	cpu := startCPU(ss.s)
	acked := saturate(o, ss.clients, ss.run)
	p := cpu.stop()
	stopServerProfile()
	stopProfile()
	ss.res.addRound(acked, p)
	ss.res.lost = ss.run.lost.Load()
}

// addRound adds one saturation phase to the result.
func (r *result) addRound(acked int64, p phaseCPU) {
	r.satAcked += acked
	r.satCPU.client += p.client
	r.satCPU.clientSys += p.clientSys
	r.satCPU.server += p.server
	r.satCPU.wall += p.wall
	r.rounds = append(r.rounds, float64(acked)/p.wall.Seconds())
	r.sustained = float64(r.satAcked) / r.satCPU.wall.Seconds()
}

// The quiet wait before a saturation phase: every server must have used
// under quietShare of a core in each quietWindow for -quiet in a row,
// so one server's leftover work does not run during the other's phase.
// Its default, defaultQuiet, is longer than svc-content's edit-event debounce
// (REALTIME_EVENT_DEBOUNCE, 5 s): 5 s after a phase's last edit every
// document renders its edit event (about a second of CPU for the 100),
// which a shorter wait let fall into the next phase, often the other
// server's.
const (
	quietWindow  = 500 * time.Millisecond
	quietShare   = 0.05
	defaultQuiet = 7 * time.Second
	quietWithin  = 60 * time.Second
)

// waitQuiet waits until every server has been quiet for quietFor; false
// if that did not come within the time given.
func waitQuiet(ss []*session, quietFor, within time.Duration) bool {
	deadline := time.Now().Add(within)
	var quietSince time.Time
	for {
		meters := make([]cpuMeter, len(ss))
		for i, s := range ss {
			meters[i] = startCPU(s.s)
		}
		start := time.Now()
		time.Sleep(quietWindow)
		quiet := true
		for _, m := range meters {
			quiet = quiet && m.stop().server.Seconds() < quietShare*quietWindow.Seconds()
		}
		switch {
		case !quiet:
			quietSince = time.Time{}
		case quietSince.IsZero():
			quietSince = start
		}
		if !quietSince.IsZero() && time.Since(quietSince) >= quietFor {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
	}
}

// roundRates lists the rounds' rates: "44314 / 45079 / 49656".
func roundRates(rates []float64) string {
	parts := make([]string, len(rates))
	for i, r := range rates {
		parts[i] = fmt.Sprintf("%.0f", r)
	}
	return strings.Join(parts, " / ")
}
