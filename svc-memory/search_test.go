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

type searchResult struct {
	Results         []record `json:"results"`
	TotalInScope    int64    `json:"totalInScope"`
	SearchLatencyMs *float64 `json:"searchLatencyMs"`
}

func (e *env) search(principal string, q map[string]any) searchResult {
	e.T.Helper()
	var out searchResult
	r := e.ok(principal, "/v2/memory/search", q, &out)
	if _, has := r.Result["status"]; has || out.SearchLatencyMs == nil || *out.SearchLatencyMs < 0 {
		e.T.Fatalf("search result shape: %v", r.Result)
	}
	return out
}

func days(n int) time.Duration { return time.Duration(n) * 24 * time.Hour }

// seed ingests the search dataset: ws1 has o1/d1 (s1–s3), o1/d2 (s4–s6)
// and o2/d1 (s7); ws2 has one judgment.
func seed(e *env) time.Time {
	now := time.Now()
	agent := review("s6", "comment_annotation.reject", "o1", "d2", "ann2", "bot1", "Missing citation detected", now.Add(-days(5))).
		with("actionUser", map[string]any{"userId": "bot1", "name": "Citation Bot", "type": "agent"})
	agent["entityData"] = map[string]any{"commentText": "Missing citation detected", "contentType": "legal"}
	blog := review("s1", "comment_annotation.reject", "o1", "d1", "ann1", "u1", "", now.Add(-days(2)))
	blog["entityData"] = map[string]any{"commentText": "The citation is missing for the revenue claim", "contentType": "blog"}
	e.ingest("ws1", 7,
		blog,
		review("s2", "comment_annotation.reject", "o1", "d1", "ann1", "u2", "Citation missing, please add the source", now.Add(-days(3))),
		review("s3", "comment_annotation.approve", "o1", "d1", "ann1", "u1", "Summary is clear and ready to publish", now.Add(-days(30))).
			with("entityTargetData", "Onboarding checklist for new hires"),
		review("s4", "comment_annotation.approve", "o1", "d2", "ann2", "u3", "Citation added, approved", now.Add(-days(40))),
		review("s5", "comment.add", "o1", "d2", "ann2", "u2", "Where is the citation for this number?", now.Add(-days(1))),
		agent,
		review("s7", "comment_annotation.reject", "o2", "d1", "ann3", "u1", "No citation provided", now.Add(-days(400))),
	)
	e.ingest("ws2", 1, review("x1", "comment_annotation.reject", "o1", "d1", "ann1", "u1", "citation missing", now.Add(-days(1))))
	return now
}

func sortedIDs(rs []record) string {
	out := strings.Split(ids(rs), ",")
	sort.Strings(out)
	return strings.Join(out, ",")
}

func TestSearchScopesAndFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcmemory.Config{})
	now := seed(e)
	q := func(kv ...any) map[string]any {
		m := map[string]any{"query": "citation missing", "limit": 50}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	f := func(kv ...any) map[string]any {
		m := map[string]any{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	tests := []struct {
		name      string
		body      map[string]any
		wantIDs   string // sorted
		wantTotal int64
	}{
		{"workspace", q(), "s1,s2,s3,s4,s5,s6,s7", 7},
		{"organization", q("organizationId", "o1"), "s1,s2,s3,s4,s5,s6", 6},
		{"document", q("organizationId", "o1", "documentId", "d1"), "s1,s2,s3", 3},
		{"explicit apiKey scope widens", q("organizationId", "o1", "documentId", "d1", "scope", "apiKey"), "s1,s2,s3,s4,s5,s6,s7", 7},
		{"explicit organization scope", q("organizationId", "o1", "documentId", "d1", "scope", "organization"), "s1,s2,s3,s4,s5,s6", 6},
		{"decision", q("filters", f("decision", "rejected")), "s1,s2,s6,s7", 7},
		{"decision side alias", q("filters", f("decision", "approve")), "s3,s4", 7},
		{"decision list", q("filters", f("decision", []string{"approved", "comment"})), "s3,s4,s5", 7},
		{"judge agent", q("filters", f("judgeType", "agent")), "s6", 7},
		{"judge human", q("organizationId", "o1", "filters", f("judgeType", "human")), "s1,s2,s3,s4,s5", 6},
		{"content type", q("filters", f("contentType", "legal")), "s6", 7},
		{"default content type", q("organizationId", "o1", "documentId", "d1", "filters", f("contentType", "comment")), "s2,s3", 3},
		{"reviewer", q("filters", f("reviewerId", "u1")), "s1,s3,s7", 7},
		{"date range ISO and epoch", q("filters", f("dateRange", f("start", now.Add(-days(10)).UTC().Format(time.RFC3339), "end", now.UnixMilli()))), "s1,s2,s5,s6", 7},
		{"date range open end", q("filters", f("dateRange", f("start", now.Add(-days(35)).UnixMilli()))), "s1,s2,s3,s5,s6", 7},
		{"exclude documents", q("organizationId", "o1", "filters", f("excludeDocumentIds", []string{"d2"})), "s1,s2,s3", 6},
		{"exclude documents top level", q("excludeDocumentIds", []string{"d1"}), "s4,s5,s6", 7},
		{"combined", q("organizationId", "o1", "filters", f("decision", "rejected", "judgeType", "human", "reviewerId", "u2")), "s2", 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := e.search(ws1, tt.body)
			if got := sortedIDs(res.Results); got != tt.wantIDs {
				t.Fatalf("results %s, want %s", got, tt.wantIDs)
			}
			if res.TotalInScope != tt.wantTotal {
				t.Fatalf("totalInScope %d, want %d", res.TotalInScope, tt.wantTotal)
			}
		})
	}
}

func TestSearchRankingAndRecordShape(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcmemory.Config{})
	seed(e)
	res := e.search(ws1, map[string]any{"query": "citation missing", "organizationId": "o1", "documentId": "d1", "scope": "apiKey"})
	if len(res.Results) != 7 {
		t.Fatalf("%d results", len(res.Results))
	}
	// s1, s2 and s6 all say the citation is missing.
	if top := res.Results[0].RecordID; top != "s2" && top != "s1" && top != "s6" {
		t.Fatalf("top result %s: %s", top, ids(res.Results))
	}
	for i := 1; i < len(res.Results); i++ {
		if res.Results[i].Similarity > res.Results[i-1].Similarity {
			t.Fatalf("not ordered by similarity: %+v", res.Results)
		}
	}
	scopes := map[string]string{}
	for _, r := range res.Results {
		scopes[r.RecordID] = r.Scope
		if r.Similarity <= 0 && r.RecordID != "s3" {
			t.Errorf("%s similarity %v", r.RecordID, r.Similarity)
		}
	}
	if scopes["s1"] != "document" || scopes["s4"] != "organization" || scopes["s7"] != "apiKey" {
		t.Fatalf("record scopes %v", scopes)
	}
	// The limit holds, and filters apply inside the index: approved
	// judgments rank low for this query but still fill the limit.
	if res := e.search(ws1, map[string]any{"query": "citation missing", "limit": 2}); len(res.Results) != 2 {
		t.Fatalf("limit 2: %d results", len(res.Results))
	}
	if res := e.search(ws1, map[string]any{"query": "citation missing", "limit": 2, "filters": map[string]any{"decision": "approved"}}); sortedIDs(res.Results) != "s3,s4" {
		t.Fatalf("filtered limit: %s", ids(res.Results))
	}
	// Default limit 10.
	var many []activity
	for i := range 12 {
		many = append(many, review("m"+string(rune('a'+i)), "comment.add", "o9", "d9", "ann9", "u1", "citation note", time.Now()))
	}
	e.ingest("ws1", 19, many...)
	if res := e.search(ws1, map[string]any{"query": "citation"}); len(res.Results) != 10 {
		t.Fatalf("default limit: %d results", len(res.Results))
	}
}

func TestSearchContentEmbedding(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcmemory.Config{})
	seed(e)
	byContent := e.search(ws1, map[string]any{"query": "onboarding checklist", "embeddingType": "content"})
	byReview := e.search(ws1, map[string]any{"query": "onboarding checklist", "embeddingType": "review"})
	if byContent.Results[0].RecordID != "s3" || byContent.Results[0].Similarity < 0.3 {
		t.Fatalf("content search: %+v", byContent.Results[0])
	}
	for _, r := range byReview.Results {
		if r.Similarity >= 0.2 {
			t.Fatalf("review search matched %s at %v: the reviewed content must not be in review vectors", r.RecordID, r.Similarity)
		}
	}
}

func TestSearchThreadAndRecency(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcmemory.Config{})
	now := seed(e)
	thread := e.search(ws1, map[string]any{"organizationId": "o1", "filters": map[string]any{"annotationId": "ann1"}})
	if ids(thread.Results) != "s3,s2,s1" {
		t.Fatalf("thread %s, want oldest first s3,s2,s1", ids(thread.Results))
	}
	for _, r := range thread.Results {
		if r.Similarity != 1 {
			t.Fatalf("thread similarity %v", r.Similarity)
		}
	}
	if thread.TotalInScope != 6 {
		t.Fatalf("thread totalInScope %d", thread.TotalInScope)
	}
	if got := e.search(ws1, map[string]any{"organizationId": "o1", "limit": 2, "filters": map[string]any{"annotationId": "ann1"}}); ids(got.Results) != "s2,s1" {
		t.Fatalf("thread limit 2: %s, want the newest two oldest first", ids(got.Results))
	}
	// recencyDays: newest first within the window; it overrides dateRange.
	old := map[string]any{"start": now.Add(-days(500)).UnixMilli(), "end": now.Add(-days(300)).UnixMilli()}
	recent := e.search(ws1, map[string]any{"query": "anything", "recencyDays": 4, "filters": map[string]any{"dateRange": old}})
	if ids(recent.Results) != "s5,s1,s2" {
		t.Fatalf("recent %s, want s5,s1,s2", ids(recent.Results))
	}
	for _, r := range recent.Results {
		if r.Similarity != 1 {
			t.Fatalf("recency similarity %v", r.Similarity)
		}
	}
	if got := e.search(ws1, map[string]any{"recencyDays": 4, "organizationId": "o1", "documentId": "d2"}); ids(got.Results) != "s5" {
		t.Fatalf("recent in d2: %s", ids(got.Results))
	}
	if got := e.search(ws1, map[string]any{"recencyDays": 365}); len(got.Results) != 6 {
		t.Fatalf("recent in a year: %s", ids(got.Results))
	}
}

func TestSearchValidation(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcmemory.Config{})
	tests := []struct {
		name string
		body any
		want []string // issue fields
	}{
		{"no query", map[string]any{}, []string{"query"}},
		{"blank query", map[string]any{"query": "  "}, []string{"query"}},
		{"query not a string", map[string]any{"query": 5}, []string{"query"}},
		{"limit zero", map[string]any{"query": "x", "limit": 0}, []string{"limit"}},
		{"limit too big", map[string]any{"query": "x", "limit": 51}, []string{"limit"}},
		{"limit fraction", map[string]any{"query": "x", "limit": 2.5}, []string{"limit"}},
		{"limit string", map[string]any{"query": "x", "limit": "5"}, []string{"limit"}},
		{"embedding type", map[string]any{"query": "x", "embeddingType": "vector"}, []string{"embeddingType"}},
		{"scope unknown", map[string]any{"query": "x", "scope": "galaxy"}, []string{"scope"}},
		{"scope document without document", map[string]any{"query": "x", "organizationId": "o1", "scope": "document"}, []string{"scope"}},
		{"scope organization without org", map[string]any{"query": "x", "scope": "organization"}, []string{"scope"}},
		{"document without org", map[string]any{"query": "x", "documentId": "d1"}, []string{"documentId"}},
		{"annotation without org", map[string]any{"query": "x", "filters": map[string]any{"annotationId": "a"}}, []string{"filters.annotationId"}},
		{"filters not an object", map[string]any{"query": "x", "filters": "all"}, []string{"filters"}},
		{"unknown decision", map[string]any{"query": "x", "filters": map[string]any{"decision": "maybe"}}, []string{"filters.decision"}},
		{"decisions above memory.decisions", map[string]any{"query": "x", "filters": map[string]any{"decision": slices.Repeat([]string{"approved"}, 21)}}, []string{"filters.decision"}},
		{"excluded documents above their limit", map[string]any{"query": "x", "excludeDocumentIds": slices.Repeat([]string{"d"}, 1001)}, []string{"excludeDocumentIds"}},
		{"unknown judge", map[string]any{"query": "x", "filters": map[string]any{"judgeType": "robot"}}, []string{"filters.judgeType"}},
		{"start after end", map[string]any{"query": "x", "filters": map[string]any{"dateRange": map[string]any{"start": "2025-02-01", "end": "2025-01-01T00:00:00Z"}}}, []string{"filters.dateRange"}},
		{"bad date", map[string]any{"query": "x", "filters": map[string]any{"dateRange": map[string]any{"start": "yesterday"}}}, []string{"filters.dateRange.start"}},
		{"recency zero", map[string]any{"query": "x", "recencyDays": 0}, []string{"recencyDays"}},
		{"recency too big", map[string]any{"query": "x", "recencyDays": 366}, []string{"recencyDays"}},
		{"unknown field", map[string]any{"query": "x", "organisationId": "o1"}, []string{"organisationId"}},
		{"unknown filter", map[string]any{"query": "x", "filters": map[string]any{"judgetype": "human"}}, []string{"filters.judgetype"}},
		{"every bad field at once", map[string]any{"query": "", "limit": 100, "documentId": "d1", "recencyDays": 0, "filters": map[string]any{"judgeType": "x"}},
			[]string{"documentId", "filters.judgeType", "limit", "recencyDays"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.fails(ws1, "/v2/memory/search", tt.body, http.StatusBadRequest, "INVALID_ARGUMENT")
			got := r.issueFields()
			sort.Strings(got)
			if !slices.Equal(got, tt.want) {
				t.Fatalf("issues %v, want %v (%s)", got, tt.want, r.Error.Message)
			}
			for _, is := range r.Error.Details.Issues {
				if strings.HasPrefix(is.Field, "organisationId") && !strings.Contains(is.Message, "did you mean organizationId?") {
					t.Fatalf("unknown field without suggestion: %+v", is)
				}
				if is.Message == "" {
					t.Fatalf("issue without message: %+v", r.Error.Details.Issues)
				}
			}
		})
	}
	// A date-only end includes that whole day; an ISO start equal to the end is fine.
	e.ok(ws1, "/v2/memory/search", map[string]any{"query": "x", "filters": map[string]any{"dateRange": map[string]any{"start": "2025-01-01", "end": "2025-01-01"}}}, nil)
	// Missing data is an issue of data.
	r := e.fails(ws1, "/v2/memory/search", nil, http.StatusBadRequest, "INVALID_ARGUMENT")
	if fields := r.issueFields(); len(fields) != 1 || fields[0] != "data" {
		t.Fatalf("no data: issues %v", fields)
	}
}

func TestWorkspacesAreIsolated(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcmemory.Config{})
	seed(e)
	res := e.search(ws2, map[string]any{"query": "citation missing", "limit": 50})
	if ids(res.Results) != "x1" || res.TotalInScope != 1 {
		t.Fatalf("ws2 search: %s total %d", ids(res.Results), res.TotalInScope)
	}
	if q := e.query(ws2, map[string]any{"limit": 100}); ids(q.Results) != "x1" {
		t.Fatalf("ws2 query: %s", ids(q.Results))
	}
	if got := e.search(ws2, map[string]any{"organizationId": "o1", "filters": map[string]any{"annotationId": "ann1"}}); ids(got.Results) != "x1" {
		t.Fatalf("ws2 thread: %s", ids(got.Results))
	}
	var ask askResult
	e.ok(ws2, "/v2/memory/ask", map[string]any{"question": "Summary ready to publish?"}, &ask)
	if ask.Answer != "" || ask.RecordsSearched != 1 {
		t.Fatalf("ws2 ask sees ws1: %+v", ask)
	}
	// The same record id in two workspaces is two judgments.
	e.ingest("ws2", 2, review("s1", "comment_annotation.approve", "o1", "d1", "ann1", "u9", "ws2's own s1", time.Now()))
	if r, _ := e.byID(ws1, "o1", "s1"); r.Decision != "rejected" {
		t.Fatalf("ws1's s1 changed: %+v", r)
	}
	var moved docmigrate.Moved
	e.okData(content, docmigrate.MigratePath, docmigrate.Move{WorkspaceID: "ws2", OrganizationID: "o1", DocumentID: "d1", NewDocumentID: "d8", MigrationID: "m1"}, &moved)
	if r, _ := e.byID(ws1, "o1", "s1"); r.DocumentID != "d1" || moved.Moved != 2 {
		t.Fatalf("a ws2 migration (moved %d) moved ws1's judgment: %+v", moved.Moved, r)
	}
}
