package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/opencollab/backend/deploy/local/benchkit"
)

// ingest is what the ingest phase measured.
type ingest struct {
	n, calls   int
	batch      int             // records per call (the last call may hold fewer)
	callLat    []time.Duration // every answered activities/add call, sorted
	postedActs int             // activities in answered calls
	posted     time.Duration   // first post sent → last add answered
	visibleAt  time.Duration   // first post sent → the poll that counted n judgments; 0: never
	pollEvery  time.Duration
	samples    []sample      // judgment counts over time, from the polls
	cpu        time.Duration // process CPU over elapsed
	elapsed    time.Duration // the whole phase: first post → last poll
	listing    listing
	waitFailed error // why the wait ended before n judgments were counted
}

// sample is one poll: judgments counted at a time since the first post,
// and how long the poll took.
type sample struct {
	at    time.Duration
	count int64
	took  time.Duration
}

// listing is the check that judgments/query, paged to the end, lists
// exactly the seeded records.
type listing struct {
	pages, records, seeded int
	elapsed                time.Duration
	err                    error
}

// runIngest posts the batches one call after another (the consumer of
// the activity stream is one reader, so posting in parallel would only
// deepen its backlog) while a poller counts the judgments, all within
// wait of the first post. Running out of that time is reported, not
// fatal: how far ingest got is itself the figure.
func runIngest(ctx context.Context, c *benchkit.Client, batches []batch, n int, poll, wait time.Duration) (ingest, error) {
	in := ingest{n: n, calls: len(batches), batch: len(batches[0].activities), pollEvery: poll}
	cpu0, start := cpuTime(), time.Now()
	phaseCtx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		in.samples, in.visibleAt, in.waitFailed = pollCount(phaseCtx, c, n, poll, start)
	}()
	for i, b := range batches {
		t0 := time.Now()
		err := c.Call(phaseCtx, "/v2/activities/add",
			map[string]any{"organizationId": b.org, "documentId": b.doc, "activities": b.activities}, nil)
		if err != nil && phaseCtx.Err() != nil {
			benchkit.Progress("posting cut off after %d of %d calls: %v", i, len(batches), phaseCtx.Err())
			break
		}
		if err != nil {
			cancel()
			<-done
			return in, fmt.Errorf("activities/add call %d of %d: %w", i+1, len(batches), err)
		}
		in.callLat = append(in.callLat, time.Since(t0))
		in.postedActs += len(b.activities)
		in.posted = time.Since(start)
		if (i+1)%20 == 0 || i+1 == len(batches) {
			benchkit.Progress("posted %d of %d calls", i+1, len(batches))
		}
	}
	slices.Sort(in.callLat)
	<-done
	in.cpu, in.elapsed = cpuTime()-cpu0, time.Since(start)
	if in.waitFailed == nil {
		in.listing = listAll(ctx, c)
	}
	return in, nil
}

// pollCount asks search for the number of judgments in the workspace
// (totalInScope: a count over the store of record, the same records
// judgments/query lists) until it reaches n; judgments/query has no total
// to poll (its total is the page's length). The judgments of one event
// are saved and then indexed by the same handler call, so a counted
// judgment is searchable within that call's indexing time.
//
// On the embedded store every poll scans the judgments (FerretDB's SQLite
// backend filters, counts and sorts in Go, whatever the indexes), so a
// poll grows as expensive as an ingest step. Polls therefore wait at
// least every and at least nine times the last poll's latency: they take
// at most a tenth of the wall time, and the end-to-end time's resolution
// is what the pause was.
func pollCount(ctx context.Context, c *benchkit.Client, n int, every time.Duration, start time.Time) ([]sample, time.Duration, error) {
	var samples []sample
	last := time.Now()
	for {
		var r searchReply
		t0 := time.Now()
		// The recency path: no query embedding, only a count and a
		// one-record listing.
		err := c.Call(ctx, "/v2/memory/search", map[string]any{"recencyDays": 1, "limit": 1}, &r)
		took := time.Since(t0)
		switch {
		case err != nil && ctx.Err() != nil:
			return samples, 0, fmt.Errorf("%d of %d judgments counted when the wait ended: %w", lastCount(samples), n, ctx.Err())
		case err != nil:
			return samples, 0, err
		case r.TotalInScope == nil:
			return samples, 0, errors.New("search reply without totalInScope")
		}
		at := time.Since(start)
		samples = append(samples, sample{at: at, count: *r.TotalInScope, took: took})
		if *r.TotalInScope >= int64(n) {
			return samples, at, nil
		}
		if time.Since(last) >= 10*time.Second {
			benchkit.Progress("%d of %d judgments after %v", *r.TotalInScope, n, at.Round(time.Second))
			last = time.Now()
		}
		select {
		case <-ctx.Done():
			return samples, 0, fmt.Errorf("%d of %d judgments counted when the wait ended: %w", lastCount(samples), n, ctx.Err())
		case <-time.After(max(every, 9*took)):
		}
	}
}

func lastCount(samples []sample) int64 {
	if len(samples) == 0 {
		return 0
	}
	return samples[len(samples)-1].count
}

// listAll pages through judgments/query (100 a page, the maximum) to the
// end: every seeded id must be listed exactly once. This is what an API
// user sees, not only a count.
func listAll(ctx context.Context, c *benchkit.Client) (l listing) {
	start := time.Now()
	defer func() { l.elapsed = time.Since(start) }()
	seen := map[string]bool{}
	token := ""
	for {
		q := map[string]any{"limit": 100}
		if token != "" {
			q["pageToken"] = token
		}
		var p queryPage
		if l.err = c.Call(ctx, "/v2/memory/judgments/query", q, &p); l.err != nil {
			return l
		}
		l.pages++
		for _, r := range p.Results {
			if seen[r.RecordID] {
				l.err = fmt.Errorf("record %s listed twice", r.RecordID)
				return l
			}
			seen[r.RecordID] = true
			l.records++
			if strings.HasPrefix(r.RecordID, "mb-") {
				l.seeded++
			}
		}
		if p.NextPageToken == nil || *p.NextPageToken == "" {
			return l
		}
		token = *p.NextPageToken
	}
}

// milestone is the first poll that counted at least share of n.
func (in ingest) milestone(share float64) (sample, bool) {
	want := int64(share * float64(in.n))
	for _, s := range in.samples {
		if s.count >= want {
			return s, true
		}
	}
	return sample{}, false
}
