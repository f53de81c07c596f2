package svcmemory_test

import (
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/docmigrate"
	svcmemory "github.com/opencollab/backend/svc-memory"
)

func TestJudgmentsQuery(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcmemory.Config{})
	seed(e)
	tests := []struct {
		name string
		q    map[string]any
		want string // in order
	}{
		{"workspace newest first", map[string]any{}, "s5,s1,s2,s6,s3,s4,s7"},
		{"organization", map[string]any{"organizationId": "o2"}, "s7"},
		{"document", map[string]any{"organizationId": "o1", "documentId": "d2"}, "s5,s6,s4"},
		{"document alone is ignored", map[string]any{"documentId": "d2"}, "s5,s1,s2,s6,s3,s4,s7"},
		{"decision", map[string]any{"decision": "approved"}, "s3,s4"},
		{"judge type", map[string]any{"judgeType": "agent"}, "s6"},
		{"content type", map[string]any{"contentType": "blog"}, "s1"},
		{"reviewer", map[string]any{"reviewerId": "u2"}, "s5,s2"},
		{"limit", map[string]any{"limit": 2}, "s5,s1"},
		{"thread oldest first", map[string]any{"organizationId": "o1", "annotationId": "ann1"}, "s3,s2,s1"},
		{"thread keeps the newest limit", map[string]any{"organizationId": "o1", "annotationId": "ann1", "limit": 2}, "s2,s1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := e.query(ws1, tt.q)
			if ids(got.Results) != tt.want || got.Total != len(got.Results) {
				t.Fatalf("results %s (total %d), want %s", ids(got.Results), got.Total, tt.want)
			}
		})
	}
	// Default limit 20.
	var many []activity
	for i := range 25 {
		many = append(many, review("q"+strings.Repeat("x", i+1), "comment.add", "o3", "d1", "ann", "u1", "note", time.Now()))
	}
	e.ingest("ws1", 32, many...)
	if got := e.query(ws1, map[string]any{"organizationId": "o3"}); len(got.Results) != 20 || got.NextPageToken == nil {
		t.Fatalf("default limit: %d results, next %v", len(got.Results), got.NextPageToken)
	}
}

func TestJudgmentsQueryPages(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcmemory.Config{})
	seed(e)
	var all []string
	q := map[string]any{"limit": 3}
	for page := 0; ; page++ {
		got := e.query(ws1, q)
		all = append(all, strings.Split(ids(got.Results), ",")...)
		if got.NextPageToken == nil {
			break
		}
		if page > 5 {
			t.Fatal("paging does not end")
		}
		q = map[string]any{"limit": 3, "pageToken": *got.NextPageToken}
	}
	if strings.Join(all, ",") != "s5,s1,s2,s6,s3,s4,s7" {
		t.Fatalf("pages %v", all)
	}
	// Thread pages: each page oldest first, later pages older.
	first := e.query(ws1, map[string]any{"organizationId": "o1", "annotationId": "ann1", "limit": 2})
	second := e.query(ws1, map[string]any{"organizationId": "o1", "annotationId": "ann1", "limit": 2, "pageToken": *first.NextPageToken})
	if ids(first.Results) != "s2,s1" || ids(second.Results) != "s3" || second.NextPageToken != nil {
		t.Fatalf("thread pages %s / %s", ids(first.Results), ids(second.Results))
	}
	// A token belongs to its query and its workspace.
	page := e.query(ws1, map[string]any{"limit": 1})
	for _, bad := range []struct {
		principal string
		q         map[string]any
	}{
		{ws1, map[string]any{"limit": 1, "decision": "rejected", "pageToken": *page.NextPageToken}},
		{ws2, map[string]any{"limit": 1, "pageToken": *page.NextPageToken}},
		{ws1, map[string]any{"pageToken": "nope"}},
	} {
		r := e.fails(bad.principal, "/v2/memory/judgments/query", bad.q, http.StatusBadRequest, "INVALID_ARGUMENT")
		if f := r.issueFields(); len(f) != 1 || f[0] != "pageToken" {
			t.Fatalf("issues %v", f)
		}
	}
}

func TestJudgmentsQueryValidation(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcmemory.Config{})
	tests := []struct {
		name string
		q    map[string]any
		want []string
	}{
		{"limit zero", map[string]any{"limit": 0}, []string{"limit"}},
		{"limit too big", map[string]any{"limit": 101}, []string{"limit"}},
		{"unknown decision", map[string]any{"decision": "approve"}, []string{"decision"}},
		{"unknown judge", map[string]any{"judgeType": "robot"}, []string{"judgeType"}},
		{"annotation without org", map[string]any{"annotationId": "a"}, []string{"annotationId"}},
		{"all at once", map[string]any{"limit": 500, "annotationId": "a", "reviewerId": 7}, []string{"annotationId", "limit", "reviewerId"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.fails(ws1, "/v2/memory/judgments/query", tt.q, http.StatusBadRequest, "INVALID_ARGUMENT")
			got := r.issueFields()
			sort.Strings(got)
			if !slices.Equal(got, tt.want) {
				t.Fatalf("issues %v, want %v", got, tt.want)
			}
		})
	}
	if got := e.query(ws1, map[string]any{"limit": 100}); got.Results == nil || len(got.Results) != 0 || got.NextPageToken != nil {
		t.Fatalf("empty workspace: %+v", got)
	}
}

func TestMigrateDocument(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcmemory.Config{})
	seed(e)
	move := docmigrate.Move{WorkspaceID: "ws1", OrganizationID: "o1", DocumentID: "d1", NewDocumentID: "d9", MigrationID: "m1"}
	for i, want := range []int64{3, 0} { // a re-run after completion moves nothing
		var got docmigrate.Moved
		e.okData(content, docmigrate.MigratePath, move, &got)
		if got.Moved != want {
			t.Fatalf("run %d moved %d, want %d", i+1, got.Moved, want)
		}
	}
	if got := e.query(ws1, map[string]any{"organizationId": "o1", "documentId": "d9"}); ids(got.Results) != "s1,s2,s3" {
		t.Fatalf("judgments of d9: %s", ids(got.Results))
	}
	// The vectors' payload moved too: document-scoped search follows.
	if got := e.search(ws1, map[string]any{"query": "citation missing", "organizationId": "o1", "documentId": "d9"}); sortedIDs(got.Results) != "s1,s2,s3" || got.TotalInScope != 3 {
		t.Fatalf("search in d9: %s", ids(got.Results))
	}
	if got := e.search(ws1, map[string]any{"query": "citation missing", "organizationId": "o1", "documentId": "d1"}); len(got.Results) != 0 {
		t.Fatalf("search in d1 after the move: %s", ids(got.Results))
	}
	// The rest of the protocol (has-data, isolation, bad requests) is
	// docmigratetest's, run in contract_test.go.
}
