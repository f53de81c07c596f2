package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/opencollab/backend/deploy/local/benchkit"
)

// throughput runs the write phases: bulk activities/add, then
// notifications/add notifying bench-target (not the data user, whose
// notification count the page phases fix).
func throughput(ctx context.Context, c *benchkit.Client, cfg config) []phase {
	benchkit.Progress("activities/add: %d calls × %d records, %d clients", cfg.activityCalls, cfg.perActivity, cfg.conc)
	acts := measure(ctx, "activities/add", cfg.activityCalls, cfg.conc, func(ctx context.Context, i int) (int, error) {
		return addActivities(ctx, c, i, cfg.perActivity)
	})
	benchkit.Progress("notifications/add: %d calls, %d clients", cfg.notifyCalls, cfg.conc)
	notes := measure(ctx, "notifications/add", cfg.notifyCalls, cfg.conc, func(ctx context.Context, i int) (int, error) {
		return 1, addNotification(ctx, c, benchTarget, i)
	})
	return []phase{acts, notes}
}

// addActivities stores the i-th call's n activity records: one comment
// thread's activity log, as svc-content would write it.
func addActivities(ctx context.Context, c *benchkit.Client, i, n int) (int, error) {
	target := fmt.Sprintf("act-ann-%06d", i)
	acts := make([]map[string]any, n)
	for j := range acts {
		acts[j] = map[string]any{
			"featureType": "comment", "actionType": "add",
			"actionUser":     map[string]any{"userId": benchAuthor, "name": "Bench author"},
			"targetEntityId": target, "targetSubEntityId": strconv.Itoa(j + 1),
			"entityData":             map[string]any{"commentText": fmt.Sprintf("benchmark comment %d", j+1)},
			"displayMessageTemplate": "{{actionUser.name}} commented",
		}
	}
	err := c.Call(ctx, "/v2/activities/add", map[string]any{
		"organizationId": benchOrg, "documentId": fmt.Sprintf("bench-doc-%02d", i%benchDocs), "activities": acts,
	}, nil)
	if err != nil {
		return 0, err
	}
	return n, nil
}

// pages is the users/data/get measurement at one size, what the first
// page held (every call asks for the same page), and the same reads made
// directly on the two services that serve its parts.
type pages struct {
	phase
	comments, notifications int
	hasNext                 bool
	content, notify         phase
}

type userDataPage struct {
	Comments      []json.RawMessage `json:"comments"`
	Notifications []json.RawMessage `json:"notifications"`
}

// firstPages reads the data user's first users/data/get page: the warm-up
// calls, a check of what the page holds, the measured calls, then its two
// parts straight from svc-content and svc-notify.
func firstPages(ctx context.Context, u *dataUser, d *direct, cfg config) (pages, error) {
	var p pages
	if err := p.warmUp(ctx, u, cfg.pageWarmup+1); err != nil {
		return p, err
	}
	benchkit.Progress("users/data/get first page at %d: %d calls, %d clients", u.comments, cfg.pageCalls, cfg.pageConc)
	// Failed calls are counted and reported, not fatal: a page that times
	// out downstream is itself a result.
	p.phase = measure(ctx, "users/data/get", cfg.pageCalls, cfg.pageConc, func(ctx context.Context, _ int) (int, error) {
		page, _, err := firstPage(ctx, u)
		return len(page.Comments) + len(page.Notifications), err
	})
	if perPage := p.comments + p.notifications; p.records != (p.calls-p.failures)*perPage {
		return p, fmt.Errorf("users/data/get: the %d answered pages held %d items in all, want %d a page", p.calls-p.failures, p.records, perPage)
	}
	p.content = measure(ctx, "svc-content /internal/userdata/content", cfg.pageCalls, cfg.pageConc, func(ctx context.Context, _ int) (int, error) {
		return d.contentPart(ctx, u.id)
	})
	p.notify = measure(ctx, "svc-notify /internal/userdata/notifications", cfg.pageCalls, cfg.pageConc, func(ctx context.Context, _ int) (int, error) {
		return d.notifyPart(ctx, u.id)
	})
	return p, nil
}

// warmUp makes the unmeasured calls and checks that the page holds what
// was seeded; one answered call is enough to check.
func (p *pages) warmUp(ctx context.Context, u *dataUser, calls int) error {
	var lastErr error
	answered := false
	for i := 0; i < calls; i++ {
		page, next, err := firstPage(ctx, u)
		if err != nil {
			lastErr = err
			continue
		}
		answered = true
		p.comments, p.notifications, p.hasNext = len(page.Comments), len(page.Notifications), next
	}
	if !answered {
		return fmt.Errorf("users/data/get: %w", lastErr)
	}
	wantComments, wantNotes := min(u.comments, userDataPageLimit), min(u.notifications, userDataPageLimit)
	if p.comments != wantComments || p.notifications != wantNotes {
		return fmt.Errorf("users/data/get first page holds %d comments and %d notifications, want %d and %d",
			p.comments, p.notifications, wantComments, wantNotes)
	}
	return nil
}

// userDataPageLimit is the most items of each array one page holds
// (svc-identity userdata.PageLimit).
const userDataPageLimit = 100

func firstPage(ctx context.Context, u *dataUser) (userDataPage, bool, error) {
	var out result[userDataPage]
	err := u.c.Call(ctx, "/v2/users/data/get", map[string]any{"organizationId": benchOrg, "userId": u.id}, &out)
	return out.Data, out.NextPageToken != nil, err
}
