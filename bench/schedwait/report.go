package main

import (
	"fmt"
	"io"
	"slices"
	"time"
)

// bucket is the waits of one length range.
type bucket struct {
	from, to time.Duration // to 0: no upper bound
	count    int
	total    time.Duration
	busy     time.Duration // of total, while another goroutine ran
}

// bucketBounds split the waits: a wait under 20 µs is the scheduler doing
// its job; the longer ones make a request's tail.
var bucketBounds = []time.Duration{0, 20 * time.Microsecond, 50 * time.Microsecond, 100 * time.Microsecond, 200 * time.Microsecond}

func (tl *timeline) buckets() []bucket {
	bs := make([]bucket, len(bucketBounds))
	for i, from := range bucketBounds {
		bs[i].from = from
		if i+1 < len(bucketBounds) {
			bs[i].to = bucketBounds[i+1]
		}
	}
	for _, w := range tl.waits {
		d := w.length()
		i := len(bs) - 1
		for i > 0 && d < bs[i].from {
			i--
		}
		bs[i].count++
		bs[i].total += d
		bs[i].busy += min(d, tl.busyDuring(w))
	}
	return bs
}

// quantile is the q-quantile of the waits' lengths.
func (tl *timeline) quantile(q float64) time.Duration {
	if len(tl.waits) == 0 {
		return 0
	}
	ds := make([]time.Duration, len(tl.waits))
	for i, w := range tl.waits {
		ds[i] = w.length()
	}
	slices.Sort(ds)
	return ds[min(len(ds)-1, int(q*float64(len(ds))))]
}

func (tl *timeline) report(w io.Writer) {
	fmt.Fprintf(w, "%d waits from ready to running; p50 %v, p90 %v, p99 %v, p99.9 %v; %d GC cycles\n\n",
		len(tl.waits), us(tl.quantile(0.5)), us(tl.quantile(0.9)), us(tl.quantile(0.99)), us(tl.quantile(0.999)), tl.gcs)
	fmt.Fprintf(w, "goroutines ran %v in all (their own work and the system calls they make; the scheduler's and the runtime's threads' time is not in it)\n\n", tl.running().Round(time.Microsecond))
	fmt.Fprintln(w, "| wait | count | mean | another goroutine running meanwhile |")
	fmt.Fprintln(w, "|---|---|---|---|")
	for _, b := range tl.buckets() {
		if b.count == 0 {
			continue
		}
		span := fmt.Sprintf("%v–%v", us(b.from), us(b.to))
		if b.to == 0 {
			span = "≥ " + us(b.from)
		}
		fmt.Fprintf(w, "| %s | %d | %v | %.0f %% |\n", span, b.count, us(b.total/time.Duration(b.count)), 100*float64(b.busy)/float64(max(b.total, 1)))
	}
	tl.reportKinds(w, 12)
}

// us prints d in whole microseconds, as hopbench does.
func us(d time.Duration) string { return fmt.Sprintf("%d µs", d.Microseconds()) }

// running is the time goroutines spent running, summed over them.
func (tl *timeline) running() time.Duration {
	var d time.Duration
	for _, r := range tl.runs {
		d += r.length()
	}
	return d
}
