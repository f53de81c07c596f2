// Package main reads a Go execution trace and tells where a process's
// goroutines waited once they were ready to run: how long (quantiles), and
// whether another goroutine was running meanwhile (queueing behind the
// process's own work) or nothing was (the runtime or the machine). It
// answers the question the gateway hop's tail left: is the gateway's added
// p99 its scheduler, its garbage collector or its own work?
package main

import (
	"io"
	"slices"
	"time"

	"golang.org/x/exp/trace"
)

// span is an interval of trace time.
type span struct{ from, to trace.Time }

func (s span) length() time.Duration { return time.Duration(s.to - s.from) }

// run is a stretch of one goroutine running.
type run struct {
	span
	g trace.GoID
}

// timeline is what one trace says about its goroutines: every wait from
// ready to running, every stretch of running, what each goroutine is (its
// outermost function), and the GC cycles.
type timeline struct {
	waits []span
	runs  []run // sorted by start
	kinds map[trace.GoID]string
	gcs   int
}

// readTimeline walks the trace's events once.
func readTimeline(r io.Reader) (*timeline, error) {
	tr, err := trace.NewReader(r)
	if err != nil {
		return nil, err
	}
	tl := &timeline{kinds: map[trace.GoID]string{}}
	readyAt := map[trace.GoID]trace.Time{}
	runningAt := map[trace.GoID]trace.Time{}
	for {
		ev, err := tr.ReadEvent()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch ev.Kind() {
		case trace.EventRangeBegin:
			if ev.Range().Name == "GC concurrent mark phase" {
				tl.gcs++
			}
		case trace.EventStateTransition:
			tl.transition(ev, readyAt, runningAt)
		}
	}
	slices.SortFunc(tl.runs, func(a, b run) int { return int(a.from - b.from) })
	return tl, nil
}

func (tl *timeline) transition(ev trace.Event, readyAt, runningAt map[trace.GoID]trace.Time) {
	st := ev.StateTransition()
	if st.Resource.Kind != trace.ResourceGoroutine {
		return
	}
	id, t := st.Resource.Goroutine(), ev.Time()
	if _, known := tl.kinds[id]; !known {
		if k := outermost(st.Stack); k != "" {
			tl.kinds[id] = k
		}
	}
	from, to := st.Goroutine()
	if from == trace.GoRunning {
		if at, ok := runningAt[id]; ok {
			tl.runs = append(tl.runs, run{span{at, t}, id})
			delete(runningAt, id)
		}
	}
	switch to {
	case trace.GoRunnable:
		readyAt[id] = t
	case trace.GoRunning:
		runningAt[id] = t
		if at, ok := readyAt[id]; ok && from == trace.GoRunnable {
			tl.waits = append(tl.waits, span{at, t})
			delete(readyAt, id)
		}
	}
}

// busyDuring is how much of w other goroutines spent running (summed over
// every P, so with several Ps it can pass w's length; callers cap it).
func (tl *timeline) busyDuring(w span) time.Duration {
	var busy time.Duration
	tl.overlaps(w, func(_ run, d time.Duration) { busy += d })
	return busy
}

// overlaps calls f with every run that overlaps w and how long it did.
func (tl *timeline) overlaps(w span, f func(run, time.Duration)) {
	// Runs are sorted by start; one that started long before w may still
	// overlap it, so the search starts a generous 10 ms earlier.
	i, _ := slices.BinarySearchFunc(tl.runs, w.from-trace.Time(10*time.Millisecond), func(r run, t trace.Time) int { return int(r.from - t) })
	for ; i < len(tl.runs) && tl.runs[i].from < w.to; i++ {
		if lo, hi := max(tl.runs[i].from, w.from), min(tl.runs[i].to, w.to); hi > lo {
			f(tl.runs[i], time.Duration(hi-lo))
		}
	}
}

// outermost is the function a goroutine started in: the last frame of
// its stack short of runtime.goexit, "" for an empty stack. A goroutine
// created during the trace shows it at creation; one that already existed
// at its first event (the stack where it was blocked, say).
func outermost(s trace.Stack) string {
	k := ""
	for f := range s.Frames() {
		if f.Func != "runtime.goexit" {
			k = f.Func
		}
	}
	return k
}
