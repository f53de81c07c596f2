package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/opencollab/backend/deploy/local/internal/localproc"
)

const pageSize = 5

// staleTokens were issued by Redis before the outage.
type staleTokens struct{ activities, users string }

// seed adds the activities and users the reads page through and takes one
// next-page token of each from Redis.
func seed(ctx context.Context, c *localproc.Client) (staleTokens, error) {
	users := make([]any, 12)
	for i := range users {
		users[i] = map[string]any{"userId": fmt.Sprintf("u%02d", i), "name": fmt.Sprintf("User %d", i), "email": fmt.Sprintf("u%d@example.com", i)}
	}
	if code, _, err := c.Post(ctx, "/v2/users/add", map[string]any{"organizationId": "outage", "users": users}); err != nil || code != http.StatusOK {
		return staleTokens{}, fmt.Errorf("users/add: HTTP %d, %v", code, err)
	}
	for i := range 12 {
		if code := addActivity(ctx, c, fmt.Sprintf("seed_%02d", i)); code != http.StatusOK {
			return staleTokens{}, fmt.Errorf("activities/add: HTTP %d", code)
		}
	}
	var st staleTokens
	var code int
	if code, st.activities = readActivities(ctx, c, ""); st.activities == "" {
		return st, fmt.Errorf("activities/get gave no page token (HTTP %d)", code)
	}
	if code, st.users = readUsers(ctx, c, ""); st.users == "" {
		return st, fmt.Errorf("users/get gave no page token (HTTP %d)", code)
	}
	return st, nil
}

var seq atomic.Int64

func addActivity(ctx context.Context, c *localproc.Client, id string) int {
	code, _, _ := c.Post(ctx, "/v2/activities/add", map[string]any{
		"organizationId": "outage", "documentId": "doc-1",
		"activities": []any{map[string]any{
			"id": id, "featureType": "custom", "actionType": "outage.probe", "targetEntityId": id,
			"actionUser": map[string]any{"userId": "u00", "name": "User 0", "email": "u0@example.com"},
		}},
	})
	return code
}

func readActivities(ctx context.Context, c *localproc.Client, token string) (int, string) {
	body := map[string]any{"organizationId": "outage", "documentId": "doc-1", "pageSize": pageSize}
	return readPage(ctx, c, "/v2/activities/get", body, token, "pageToken")
}

func readUsers(ctx context.Context, c *localproc.Client, token string) (int, string) {
	body := map[string]any{"organizationId": "outage", "pageSize": pageSize}
	return readPage(ctx, c, "/v2/users/get", body, token, "nextPageToken")
}

// readPage reads one page and returns the status and result[tokenField].
func readPage(ctx context.Context, c *localproc.Client, path string, body map[string]any, token, tokenField string) (int, string) {
	if token != "" {
		body["pageToken"] = token
	}
	code, r, _ := c.Post(ctx, path, body)
	var res map[string]json.RawMessage
	var next string
	if json.Unmarshal(r.Result, &res) == nil {
		_ = json.Unmarshal(res[tokenField], &next)
	}
	return code, next
}

// tally counts one phase's answers by operation.
type tally struct {
	name   string
	mu     sync.Mutex
	counts map[string]*opCount
}

type opCount struct {
	calls, ok, clientErr, unavailable, otherServerErr, noAnswer, noRetryAfter int
	slowest                                                                   time.Duration
	overLimit                                                                 int // answers slower than slowLimit
}

// slowLimit is the longest a request may take (issue: no request over a
// few seconds, Redis down or not).
const slowLimit = 5 * time.Second

func (t *tally) add(op string, code int, retryAfter string, took time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	c := t.counts[op]
	if c == nil {
		c = &opCount{}
		t.counts[op] = c
	}
	c.calls++
	c.slowest = max(c.slowest, took)
	if took > slowLimit {
		c.overLimit++
	}
	switch {
	case code == 0:
		c.noAnswer++
	case code < 400:
		c.ok++
	case code < 500:
		c.clientErr++
	case code == http.StatusServiceUnavailable:
		c.unavailable++
		if retryAfter == "" {
			c.noRetryAfter++
		}
	default:
		c.otherServerErr++
	}
}

// runPhase runs the callers for one phase. Each round is: add an
// activity, read the first page of activities and of users and follow
// each first page's token to page 2, and read page 2 with a token Redis
// issued before the outage.
func runPhase(ctx context.Context, c *localproc.Client, name string, cfg config, stale staleTokens) *tally {
	t := &tally{name: name, counts: map[string]*opCount{}}
	ctx, cancel := context.WithTimeout(ctx, cfg.phase)
	defer cancel()
	var wg sync.WaitGroup
	for range cfg.workers {
		wg.Go(func() {
			for ctx.Err() == nil {
				round(ctx, c, t, stale)
			}
		})
	}
	wg.Wait()
	return t
}

func round(ctx context.Context, c *localproc.Client, t *tally, stale staleTokens) {
	start := time.Now()
	record := func(op string, code int, ra string) {
		if ctx.Err() == nil { // a call cut by the phase's end is not an answer
			t.add(op, code, ra, time.Since(start))
		}
		start = time.Now()
	}
	record("activities/add", addActivity(ctx, c, fmt.Sprintf("load_%d_%d", time.Now().UnixNano(), seq.Add(1))), "")
	code, tok := readActivities(ctx, c, "")
	record("activities/get page 1", code, "")
	if tok != "" {
		code, _ = readActivities(ctx, c, tok)
		record("activities/get page 2", code, "")
	}
	start = time.Now()
	code, tok = readUsers(ctx, c, "")
	record("users/get page 1", code, "")
	if tok != "" {
		code, _ = readUsers(ctx, c, tok)
		record("users/get page 2", code, "")
	}
	start = time.Now()
	code, r, _ := c.Post(ctx, "/v2/activities/get", map[string]any{"organizationId": "outage", "documentId": "doc-1", "pageSize": pageSize, "pageToken": stale.activities})
	record(staleOp, code, r.RetryAfter)
}

// staleOp is the call that needs Redis: its 503s are expected during the
// outage.
const staleOp = "activities/get, token from before the outage"
