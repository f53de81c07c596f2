package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime/pprof"
	"sort"
	"time"
)

// steady sends one update per client every 1/rate seconds, each client at
// a random phase within the period, and returns how many were sent. One
// goroutine walks the clients in the order of their phase and sleeps until
// the next is due, instead of a goroutine and a ticker per client.
func steady(o options, clients []*client) int {
	period := time.Duration(float64(time.Second) / o.rate)
	type due struct {
		offset time.Duration
		c      *client
	}
	order := make([]due, len(clients))
	for i, c := range clients {
		order[i] = due{time.Duration(rand.Int64N(int64(period))), c}
	}
	sort.Slice(order, func(i, j int) bool { return order[i].offset < order[j].offset })
	start := time.Now()
	sent := 0
	for round := time.Duration(0); round < o.steady; round += period {
		for _, d := range order {
			at := round + d.offset
			if at >= o.steady {
				break
			}
			if wait := at - time.Since(start); wait > 0 {
				time.Sleep(wait)
			}
			if d.c.send() == nil {
				sent++
			}
		}
	}
	return sent
}

// saturate lets every client send its next update once the previous one
// was acknowledged (the client's reader sends it), stops sending after
// o.sat, waits up to 10 s for the updates still unacknowledged and returns
// how many were acknowledged in all.
func saturate(o options, clients []*client, run *run) int64 {
	for _, c := range clients {
		c.unacked.Store(0)
	}
	start := run.acked.Load()
	run.saturating.Store(true)
	for _, c := range clients {
		if err := c.send(); err != nil {
			run.lost.Add(1)
		}
	}
	time.Sleep(o.sat)
	run.saturating.Store(false)
	for give := time.Now().Add(10 * time.Second); time.Now().Before(give) && unacknowledged(clients); {
		time.Sleep(time.Millisecond)
	}
	return run.acked.Load() - start
}

func unacknowledged(clients []*client) bool {
	for _, c := range clients {
		if c.unacked.Load() > 0 {
			return true
		}
	}
	return false
}

// startProfile profiles this process (the clients) to <prefix>-<key>.pprof
// until the returned function is called; nothing without a prefix.
func startProfile(prefix, key string) func() {
	if prefix == "" {
		return func() {}
	}
	f, err := os.Create(prefix + "-" + key + ".pprof")
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "realtimebench: cpu profile:", err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
