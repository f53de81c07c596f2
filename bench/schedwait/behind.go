package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"time"
)

// longWait is where a wait starts to make a request's tail: the waits
// this long or longer are the ones whose queue behindKinds shows.
const longWait = 50 * time.Microsecond

// kindTime is the running time of one kind of goroutine.
type kindTime struct {
	kind string
	d    time.Duration
}

// behindKinds is what ran while goroutines waited longWait or longer,
// by kind of goroutine (its outermost function), most first (a run
// during two waits at once counts for each): the
// requests' own goroutines queue behind each other, and anything else
// (an exporter, a timer, a refresher) is work that could move out of
// their way.
func (tl *timeline) behindKinds() []kindTime { return sortedKinds(tl.behindByKind()) }

func (tl *timeline) behindByKind() map[string]time.Duration {
	by := map[string]time.Duration{}
	for _, w := range tl.waits {
		if w.length() < longWait {
			continue
		}
		tl.overlaps(w, func(r run, d time.Duration) { by[tl.kind(r)] += d })
	}
	return by
}

// runningKinds is all running time by kind of goroutine, most first.
func (tl *timeline) runningKinds() []kindTime {
	by := map[string]time.Duration{}
	for _, r := range tl.runs {
		by[tl.kind(r)] += r.length()
	}
	return sortedKinds(by)
}

func (tl *timeline) kind(r run) string {
	if k, ok := tl.kinds[r.g]; ok {
		return k
	}
	return "(no stack in the trace)"
}

func sortedKinds(by map[string]time.Duration) []kindTime {
	out := make([]kindTime, 0, len(by))
	for k, d := range by {
		out = append(out, kindTime{k, d})
	}
	slices.SortFunc(out, func(a, b kindTime) int {
		return cmp.Or(cmp.Compare(b.d, a.d), cmp.Compare(a.kind, b.kind))
	})
	return out
}

// reportKinds prints the running time by kind and what ran during the
// long waits, the first few kinds of each.
func (tl *timeline) reportKinds(w io.Writer, most int) {
	all, during := tl.runningKinds(), tl.behindByKind()
	var total time.Duration
	for _, d := range during {
		total += d
	}
	fmt.Fprintf(w, "\n| goroutine (outermost function) | running in all | running during waits ≥ %v |\n|---|---|---|\n", us(longWait))
	for _, k := range all[:min(most, len(all))] {
		fmt.Fprintf(w, "| %s | %v | %v (%.0f %%) |\n", k.kind, k.d.Round(time.Microsecond), during[k.kind].Round(time.Microsecond),
			100*float64(during[k.kind])/float64(max(total, 1)))
	}
}
