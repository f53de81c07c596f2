package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/opencollab/backend/deploy/local/internal/localproc"
)

// TestKill9MidErasureResumes: deploy/local is killed (SIGKILL) while a
// GDPR erasure of a user with data in every service is under way; started
// again on the same data directory, the job resumes to done and nothing of
// the user is left in any service's reads.
func TestKill9MidErasureResumes(t *testing.T) {
	t.Parallel()
	ctx, work, bin := localTest(t)
	o := localproc.Options{Bin: bin, DataDir: filepath.Join(work, "erase"), Log: filepath.Join(work, "erase.log"),
		// Tasks that failed while the restarted process came up are retried
		// after this (10 s by default).
		Env: []string{"ERASURE_RETRY_INTERVAL=1s"}}
	if err := os.MkdirAll(o.DataDir, 0o755); err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	p := startOrFail(t, ctx, o)
	c := &api{t: t, ctx: ctx, c: localproc.NewClient(p.URL, 30*time.Second)}
	t.Logf("started in %v", time.Since(began))
	c.seedEveryService("ann")
	t.Logf("seeded after %v", time.Since(began))
	if d := c.data("/v2/users/data/get", map[string]any{"organizationId": crashOrg, "userId": "ann"}); d["user"] == nil {
		t.Fatalf("fixture: users/data/get finds no profile of ann: %v", d)
	}

	job := c.data("/v2/users/data/delete", map[string]any{"userIds": []string{"ann"}})["jobId"].(string)
	started := time.Now()
	var seen map[string]any
	for {
		seen = c.data("/v2/users/data/delete/status", map[string]any{"jobId": job})
		left, _ := seen["tasksLeft"].(float64)
		if left > 0 && left < 6 || seen["isDeleteCompleted"] == true {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if seen["isDeleteCompleted"] == true {
		t.Fatalf("the erasure finished in %v before the kill could land mid-job; the fixture is too small", time.Since(started))
	}
	p.Kill()
	t.Logf("killed after %v with services %v", time.Since(started), seen["services"])

	p = startOrFail(t, ctx, o)
	defer p.Stop()
	t.Logf("restarted after %v", time.Since(began))
	c.c = localproc.NewClient(p.URL, 30*time.Second)
	var st map[string]any
	// A generous bound: the job usually ends in seconds, but this test runs
	// beside the other kill -9 test and the rest of the suite on 2 cores.
	for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		prev := st["services"]
		if st = c.data("/v2/users/data/delete/status", map[string]any{"jobId": job}); st["isDeleteCompleted"] == true {
			break
		}
		if fmt.Sprint(prev) != fmt.Sprint(st["services"]) {
			t.Logf("after %v: %v", time.Since(began), st["services"])
		}
	}
	if st["isDeleteCompleted"] != true || st["tasksLeft"] != float64(0) {
		t.Fatalf("after the restart the job did not finish: %v", st)
	}
	t.Logf("job done after %v", time.Since(began))
	c.expectNothingOf("ann")
	t.Logf("checked after %v", time.Since(began))
}

// startOrFail starts deploy/local on a port of the kernel's choosing and
// fails with the end of its log.
func startOrFail(t *testing.T, ctx context.Context, o localproc.Options) *localproc.Proc {
	t.Helper()
	p, err := localproc.Start(ctx, o)
	if err != nil {
		log, _ := os.ReadFile(o.Log)
		if len(log) > 3000 {
			log = log[len(log)-3000:]
		}
		t.Fatalf("%v\n%s", err, log)
	}
	return p
}

// api calls the gateway of a deploy/local with the bootstrap credentials.
type api struct {
	t   *testing.T
	ctx context.Context
	c   *localproc.Client
}

const crashOrg = "erase-org"

// data posts and returns result.data, failing on anything but 200.
func (a *api) data(path string, body map[string]any) map[string]any {
	a.t.Helper()
	code, r, err := a.c.Post(a.ctx, path, body)
	if err != nil || code != http.StatusOK {
		a.t.Fatalf("%s: HTTP %d, %v: %s", path, code, err, r.Result)
	}
	var res struct {
		Data map[string]any `json:"data"`
	}
	_ = json.Unmarshal(r.Result, &res)
	return res.Data
}

// raw posts and returns result as text.
func (a *api) raw(path string, body map[string]any) string {
	a.t.Helper()
	code, r, err := a.c.Post(a.ctx, path, body)
	if err != nil || code != http.StatusOK {
		a.t.Fatalf("%s: HTTP %d, %v: %s", path, code, err, r.Result)
	}
	return string(r.Result)
}

func user(id string) map[string]any {
	return map[string]any{"userId": id, "name": "User " + id, "email": id + "@example.com"}
}

// seedEveryService gives the user data in identity, content, notify,
// activity, memory (judgments of review decisions) and workspace (webhook
// messages to an endpoint whose host does not resolve, so they stay
// stored). The 100 activities (and the judgments memory derives from
// them) make the first task, activity's, last long enough for the status
// to show the job half done.
func (a *api) seedEveryService(u string) {
	a.t.Helper()
	a.data("/v2/workspace/advancedwebhookconfig/update", map[string]any{"isEnabled": true})
	a.data("/v2/workspace/advancedwebhook/endpoints/create", map[string]any{"url": "https://hooks.invalid/in"})
	a.data("/v2/users/add", map[string]any{"organizationId": crashOrg, "users": []any{user(u), user("bob")}})
	var anns []any
	for i := range 10 {
		anns = append(anns, map[string]any{"annotationId": fmt.Sprintf("t%d", i),
			"commentData": []any{map[string]any{"commentText": "by " + u, "from": user(u)}}})
	}
	a.data("/v2/commentannotations/add", map[string]any{"organizationId": crashOrg, "documentId": "d1", "commentAnnotations": anns})
	var notes, acts []any
	for i := range 100 {
		notes = append(notes, map[string]any{"organizationId": crashOrg, "documentId": "d1", "notificationId": fmt.Sprintf("n%d", i),
			"actionUser": user("bob"), "displayHeadlineMessageTemplate": "{actionUser} wrote", "displayBodyMessage": "for " + u,
			"notifyAll": false, "notifyUsers": []any{user(u)}})
		acts = append(acts, map[string]any{"id": fmt.Sprintf("review-%d", i), "featureType": "comment",
			"actionType": "comment_annotation.approve", "targetEntityId": fmt.Sprintf("t%d", i%10), "actionUser": user(u),
			"entityData": map[string]any{"commentText": fmt.Sprintf("Approved: clause %d reads well", i)}})
	}
	for _, n := range notes[:10] { // one call each
		a.data("/v1/notifications/add", n.(map[string]any))
	}
	a.data("/v2/activities/add", map[string]any{"organizationId": crashOrg, "documentId": "d1", "activities": acts})
	for deadline := time.Now().Add(3 * time.Minute); a.judgmentsOf(u) < 100; time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			a.t.Fatalf("memory has %d of the 100 judgments", a.judgmentsOf(u))
		}
	}
}

// judgmentsOf counts the memory judgments of the organization reviewed by u.
func (a *api) judgmentsOf(u string) int {
	a.t.Helper()
	n := 0
	var token any
	for {
		q := map[string]any{"organizationId": crashOrg, "limit": 100}
		if token != nil {
			q["pageToken"] = token
		}
		code, r, err := a.c.Post(a.ctx, "/v2/memory/judgments/query", q)
		if err != nil || code != http.StatusOK {
			a.t.Fatalf("judgments/query: HTTP %d, %v", code, err)
		}
		var page struct {
			Results []struct {
				ActionUser struct {
					UserID string `json:"userId"`
				} `json:"actionUser"`
			} `json:"results"`
			NextPageToken any `json:"nextPageToken"`
		}
		_ = json.Unmarshal(r.Result, &page)
		for _, j := range page.Results {
			if j.ActionUser.UserID == u {
				n++
			}
		}
		if token = page.NextPageToken; token == nil {
			return n
		}
	}
}

// expectNothingOf checks users/data/get, the activity log and memory.
func (a *api) expectNothingOf(u string) {
	a.t.Helper()
	d := a.data("/v2/users/data/get", map[string]any{"organizationId": crashOrg, "userId": u})
	raw, _ := json.Marshal(d)
	for _, k := range []string{"comments", "reactions", "notifications"} {
		if items, _ := d[k].([]any); len(items) != 0 {
			a.t.Errorf("users/data/get still has %d %s of %s: %s", len(items), k, u, raw)
		}
	}
	if d["user"] != nil {
		a.t.Errorf("users/data/get still has the profile of %s: %s", u, raw)
	}
	if acts := a.raw("/v2/activities/get", map[string]any{"organizationId": crashOrg}); strings.Contains(acts, u+"@example.com") {
		t := acts
		if len(t) > 300 {
			t = t[:300]
		}
		a.t.Errorf("the activity log still names %s: %s", u, t)
	}
	// Activity events of the seeding that the restart relays reach
	// svc-memory after its erasure step; it keeps erased reviewers out of
	// ingestion, so none may have made a judgment again.
	if n := a.judgmentsOf(u); n != 0 {
		a.t.Errorf("memory still has %d judgments of %s", n, u)
	}
}
