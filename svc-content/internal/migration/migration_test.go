package migration

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/opencollab/backend/pkg/api"
)

func TestHappyPath(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	svc := h.service()
	id := h.start(svc)
	if !strings.HasPrefix(id, idPrefix) {
		t.Fatalf("migration id %q", id)
	}
	if v, err := svc.Status(context.Background(), testWS, testOrg, id); err != nil || v.Status != Pending {
		t.Fatalf("before any worker: %+v, %v; want pending", v, err)
	}

	stop := runWorker(context.Background(), svc.NewWorker(fastOptions()))
	defer stop()
	v := waitStatus(t, svc, id, Completed)
	if v.Error != "" {
		t.Fatalf("completed with error %q", v.Error)
	}

	h.tr.check(t)
	if want := []string{"content", "notify", "activity", "identity"}; !slices.Equal(h.tr.order, want) {
		t.Fatalf("steps ran in order %v, want %v", h.tr.order, want)
	}
	for _, f := range h.fakes() {
		if calls, moves := f.stats(); calls != 1 || moves != 1 {
			t.Errorf("%s: %d calls, %d moves; want 1 and 1", f.name, calls, moves)
		}
		if f.records("doc-a") != 0 || f.records("doc-b") == 0 {
			t.Errorf("%s: data left on doc-a (%d) or missing on doc-b (%d)", f.name, f.records("doc-a"), f.records("doc-b"))
		}
	}
	r := h.record(id)
	if want := map[string]int64{"content": 5, "notify": 2, "activity": 7, "identity": 1}; !mapsEqual(r.Done, want) {
		t.Fatalf("done = %v, want %v", r.Done, want)
	}
	if r.Attempts != 0 {
		t.Fatalf("attempts = %d", r.Attempts)
	}
	// Cleanup and the event follow the status write.
	waitFor(t, func() bool { return len(h.pub.Types()) == 1 }, "the completion event")
	if n := h.count(locksColl); n != 0 {
		t.Fatalf("%d document locks left after completion", n)
	}
	if n := h.count(claimsColl); n != 0 {
		t.Fatalf("%d claims left after completion", n)
	}
	e := h.pub.Events()[0]
	var data outcome
	if err := json.Unmarshal(e.Data, &data); err != nil {
		t.Fatal(err)
	}
	if e.Type != EventCompleted || e.Source != "content" || e.WorkspaceID != testWS || data.MigrationID != id || data.NewDocumentID != "doc-b" {
		t.Fatalf("event %+v with data %+v", e, data)
	}
}

func TestStepFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		fail       func(n int) error
		wantReason []string
		wantCalls  int // calls of the failing step (activity)
	}{
		{
			name:       "permanent",
			fail:       func(int) error { return api.Errorf(api.FailedPrecondition, "document is locked") },
			wantReason: []string{"step activity", "FAILED_PRECONDITION", "document is locked"},
			wantCalls:  1,
		},
		{
			name:       "transient until the attempts run out",
			fail:       func(int) error { return api.Errorf(api.Unavailable, "activity is down") },
			wantReason: []string{"step activity", "UNAVAILABLE", "gave up after 3 attempts"},
			wantCalls:  3 * 2, // MaxAttempts × StepTries
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			h.activity.fail = tt.fail
			svc := h.service()
			id := h.start(svc)
			stop := runWorker(context.Background(), svc.NewWorker(fastOptions()))
			defer stop()

			v := waitStatus(t, svc, id, Failed)
			for _, want := range tt.wantReason {
				if !strings.Contains(v.Error, want) {
					t.Errorf("reason %q lacks %q", v.Error, want)
				}
			}
			if calls, _ := h.activity.stats(); calls != tt.wantCalls {
				t.Errorf("activity called %d times, want %d", calls, tt.wantCalls)
			}
			// The document record never moved: nothing reports it moved.
			if calls, _ := h.identity.stats(); calls != 0 {
				t.Errorf("identity was called %d times after a failed step", calls)
			}
			waitFor(t, func() bool { return len(h.pub.Types()) > 0 }, "the failure event")
			if types := h.pub.Types(); !slices.Equal(types, []string{EventFailed}) {
				t.Errorf("events %v, want one %s", types, EventFailed)
			}
			if n := h.count(locksColl); n != 0 {
				t.Errorf("%d document locks left after failure", n)
			}
			stop()
			if got := h.record(id).Status; got != Failed {
				t.Fatalf("status changed to %s after failing", got)
			}
		})
	}
}

func TestTransientFailureRecovers(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	// Fails the first attempt (both tries), then works.
	h.notify.fail = func(n int) error {
		if n <= 2 {
			return api.Errorf(api.Unavailable, "notify restarting")
		}
		return nil
	}
	svc := h.service()
	id := h.start(svc)
	stop := runWorker(context.Background(), svc.NewWorker(fastOptions()))
	defer stop()
	waitStatus(t, svc, id, Completed)
	if r := h.record(id); r.Attempts != 1 || r.Done["notify"] != 2 {
		t.Fatalf("attempts %d, done %v; want 1 failed attempt and notify's 2 records", r.Attempts, r.Done)
	}
	if calls, _ := h.content.stats(); calls != 1 {
		t.Fatalf("content ran %d times: a finished step was repeated", calls)
	}
}

func TestRetryAfterFailureFinishesTheMove(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	failing := true
	h.activity.fail = func(int) error {
		if failing {
			return api.Errorf(api.InvalidArgument, "bad")
		}
		return nil
	}
	svc := h.service()
	first := h.start(svc)
	stop := runWorker(context.Background(), svc.NewWorker(fastOptions()))
	defer stop()
	waitStatus(t, svc, first, Failed)

	// doc-b now holds content and notify data of doc-a: a new migration
	// between the same documents is allowed and completes the move, while
	// any other source is refused.
	_, err := svc.Start(context.Background(), StartRequest{WorkspaceID: testWS, OrganizationID: testOrg, DocumentID: "doc-x", NewDocumentID: "doc-b"})
	if !api.IsStatus(err, api.AlreadyExists) {
		t.Fatalf("another source onto doc-b: %v, want ALREADY_EXISTS", err)
	}
	h.activity.mu.Lock()
	failing = false
	h.activity.mu.Unlock()
	second := h.start(svc)
	waitStatus(t, svc, second, Completed)
	for _, f := range h.fakes() {
		if f.records("doc-a") != 0 {
			t.Errorf("%s still holds doc-a data", f.name)
		}
	}
}

func TestStartRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	req := StartRequest{WorkspaceID: testWS, OrganizationID: testOrg, DocumentID: "doc-a", NewDocumentID: "doc-b"}
	tests := []struct {
		name   string
		setup  func(h *harness, svc *Service)
		req    StartRequest
		want   api.Status
		inDB   int64 // migrations stored afterwards
		expect string
	}{
		{"same document", nil, StartRequest{WorkspaceID: testWS, OrganizationID: testOrg, DocumentID: "doc-a", NewDocumentID: "doc-a"}, api.InvalidArgument, 0, "differ"},
		{"target has data in process", func(h *harness, _ *Service) { h.content.data["doc-b"] = 1 }, req, api.AlreadyExists, 0, "doc-b already has data"},
		{"target has data remotely", func(h *harness, _ *Service) { h.identity.data["doc-b"] = 1 }, req, api.AlreadyExists, 0, "migrating onto it is refused"},
		{"owner unavailable", func(h *harness, _ *Service) { h.servers["activity"].Close() }, req, api.Unavailable, 0, "activity"},
		{"owner failing", func(h *harness, _ *Service) { h.notify.hasErr = api.Errorf(api.Internal, "boom") }, req, api.Unavailable, 0, "notify"},
		{"source already moving", func(h *harness, svc *Service) { h.start(svc) }, StartRequest{WorkspaceID: testWS, OrganizationID: testOrg, DocumentID: "doc-a", NewDocumentID: "doc-c"}, api.FailedPrecondition, 1, "doc-a"},
		{"target of an unfinished migration", func(h *harness, svc *Service) { h.start(svc) }, StartRequest{WorkspaceID: testWS, OrganizationID: testOrg, DocumentID: "doc-b", NewDocumentID: "doc-c"}, api.FailedPrecondition, 1, "doc-b"},
		{"source does not exist", nil, StartRequest{WorkspaceID: testWS, OrganizationID: testOrg, DocumentID: "doc-nowhere", NewDocumentID: "doc-c"}, api.NotFound, 0, "doc-nowhere does not exist"},
		{"same pair twice", func(h *harness, svc *Service) { h.start(svc) }, req, api.FailedPrecondition, 1, "not finished"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			svc := h.service() // no worker: started migrations stay pending
			if tt.setup != nil {
				tt.setup(h, svc)
			}
			_, err := svc.Start(ctx, tt.req)
			if !api.IsStatus(err, tt.want) || !strings.Contains(err.Error(), tt.expect) {
				t.Fatalf("Start: %v, want %s mentioning %q", err, tt.want, tt.expect)
			}
			if n := h.count(migrationsColl); n != tt.inDB {
				t.Fatalf("%d migrations stored, want %d", n, tt.inDB)
			}
			if n := h.count(locksColl); n != 2*tt.inDB {
				t.Fatalf("%d document locks, want %d", n, 2*tt.inDB)
			}
		})
	}
}

func TestStatusIsScopedToWorkspaceAndOrganization(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	svc := h.service()
	id := h.start(svc)
	ctx := context.Background()
	for _, tt := range []struct{ ws, org, id string }{
		{testWS, testOrg, "mig_unknown"},
		{"ws_other", testOrg, id},
		{testWS, "org_other", id},
	} {
		if _, err := svc.Status(ctx, tt.ws, tt.org, tt.id); !api.IsStatus(err, api.NotFound) {
			t.Errorf("Status(%s, %s, %s) = %v, want NOT_FOUND", tt.ws, tt.org, tt.id, err)
		}
	}
}

func mapsEqual(a, b map[string]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
