package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// counts is what a throughput run saw.
type counts struct {
	requests, failures int
	elapsed            time.Duration
}

// runWrk drives addr with wrk (2 threads, conc connections) for d.
func runWrk(ctx context.Context, dir, addr string, headers [][2]string, conc int, d time.Duration) (counts, error) {
	script := filepath.Join(dir, "wrk.lua")
	var b strings.Builder
	fmt.Fprintf(&b, "wrk.method = \"POST\"\nwrk.body = %s\n", strconv.Quote(benchBody))
	for _, h := range headers {
		fmt.Fprintf(&b, "wrk.headers[%s] = %s\n", strconv.Quote(h[0]), strconv.Quote(h[1]))
	}
	if err := os.WriteFile(script, []byte(b.String()), 0o644); err != nil {
		return counts{}, err
	}
	out, err := exec.CommandContext(ctx, "wrk", "-t2", "-c"+strconv.Itoa(conc), "-d"+d.String(),
		"-s", script, "http://"+addr+benchPath).CombinedOutput()
	if err != nil {
		return counts{}, fmt.Errorf("wrk: %v: %s", err, out)
	}
	return parseWrk(string(out))
}

var (
	wrkRequests = regexp.MustCompile(`(\d+) requests in`)
	wrkRate     = regexp.MustCompile(`Requests/sec:\s+([\d.]+)`)
	wrkNon2xx   = regexp.MustCompile(`Non-2xx or 3xx responses: (\d+)`)
	wrkSocket   = regexp.MustCompile(`Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)`)
)

func parseWrk(out string) (counts, error) {
	m, r := wrkRequests.FindStringSubmatch(out), wrkRate.FindStringSubmatch(out)
	if m == nil || r == nil {
		return counts{}, fmt.Errorf("unexpected wrk output: %s", out)
	}
	var c counts
	c.requests, _ = strconv.Atoi(m[1])
	rate, _ := strconv.ParseFloat(r[1], 64)
	if rate > 0 {
		c.elapsed = time.Duration(float64(c.requests) / rate * float64(time.Second))
	}
	if m := wrkNon2xx.FindStringSubmatch(out); m != nil {
		n, _ := strconv.Atoi(m[1])
		c.failures += n
	}
	if m := wrkSocket.FindStringSubmatch(out); m != nil {
		for _, s := range m[1:] {
			n, _ := strconv.Atoi(s)
			c.failures += n
		}
	}
	return c, nil
}

// closedLoop is the stand-in for wrk when it is not installed: conc
// connections sending back to back for d.
func closedLoop(ctx context.Context, addr string, req []byte, conc int, d time.Duration) (counts, error) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var (
		mu    sync.Mutex
		total counts
		first error
		wg    sync.WaitGroup
	)
	start := time.Now()
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, fails, err := sendUntil(ctx, addr, req)
			mu.Lock()
			total.requests += n
			total.failures += fails
			if first == nil {
				first = err
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	total.elapsed = time.Since(start)
	return total, first
}

func sendUntil(ctx context.Context, addr string, req []byte) (n, fails int, err error) {
	rc, err := dialRaw(addr)
	if err != nil {
		return 0, 0, err
	}
	defer rc.close()
	for ctx.Err() == nil {
		status, err := rc.roundTrip(req)
		if err != nil {
			return n, fails + 1, err
		}
		n++
		if status != 200 {
			fails++
		}
	}
	return n, fails, nil
}

// rateStartDelay is how long after the call the first request is due.
const rateStartDelay = 50 * time.Millisecond

// constantRate sends rate requests/s for lead+d, open loop (wrk2 style):
// worker k of n sends request k, k+n, k+2n... each at its scheduled time.
// Latency runs from the actual send; when the worker is still waiting for
// an earlier answer at the scheduled time, from the scheduled time, so a
// slow answer is charged to every request it delays (no coordinated
// omission). The requests due in the first lead come back apart from
// those due in the d after it.
func constantRate(ctx context.Context, conns []*rawConn, req []byte, rate int, lead, d time.Duration) (measured, leadIn []time.Duration, fails int, err error) {
	workers := len(conns)
	interval := time.Second / time.Duration(rate)
	start := time.Now().Add(rateStartDelay)
	from, end := start.Add(lead), start.Add(lead+d)
	var (
		mu sync.Mutex
		wg sync.WaitGroup
	)
	for k, rc := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l, pre, f, e := sendOnSchedule(ctx, rc, req, start.Add(time.Duration(k)*interval), from, end, time.Duration(workers)*interval)
			mu.Lock()
			measured, leadIn, fails = append(measured, l...), append(leadIn, pre...), fails+f
			if err == nil {
				err = e
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	return measured, leadIn, fails, err
}

// sendOnSchedule sends on rc every every from due until end; the latencies
// of requests due before from come back as pre.
func sendOnSchedule(ctx context.Context, rc *rawConn, req []byte, due, from, end time.Time, every time.Duration) (lat, pre []time.Duration, fails int, err error) {
	lat = make([]time.Duration, 0, int(end.Sub(due)/every)+1)
	for ; due.Before(end) && ctx.Err() == nil; due = due.Add(every) {
		t0 := due
		if wait := time.Until(due); wait > 0 {
			time.Sleep(wait)
			t0 = time.Now()
		}
		status, err := rc.roundTrip(req)
		if err != nil {
			return lat, pre, fails + 1, err
		}
		if due.Before(from) {
			pre = append(pre, time.Since(t0))
		} else {
			lat = append(lat, time.Since(t0))
		}
		if status != 200 {
			fails++
		}
	}
	return lat, pre, fails, nil
}
