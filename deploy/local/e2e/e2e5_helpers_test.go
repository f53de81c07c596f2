package e2e

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// Helpers of the svc-memory end-to-end tests (issue 5). Names carry an e5
// prefix so they never collide with the other e2e files.

// e5For returns the stack reporting to t, so a subtest's failures stop
// the subtest, not its parent.
func (s *stack) e5For(t *testing.T) *stack {
	c := *s
	c.t = t
	return &c
}

// e5Record is a judgment as judgments/query and search return it.
type e5Record struct {
	RecordID       string          `json:"recordId"`
	Reasoning      string          `json:"reasoning"`
	Decision       string          `json:"decision"`
	Confidence     float64         `json:"confidence"`
	JudgeType      string          `json:"judgeType"`
	ContentType    string          `json:"contentType"`
	ActionUser     e5User          `json:"actionUser"`
	CreatedAt      int64           `json:"createdAt"`
	OrganizationID string          `json:"organizationId"`
	DocumentID     string          `json:"documentId"`
	AnnotationID   string          `json:"annotationId"`
	Agent          json.RawMessage `json:"agent"`
	Similarity     *float64        `json:"similarity"`
	Scope          string          `json:"scope"`
}

type e5User struct {
	UserID string `json:"userId"`
	Name   string `json:"name"`
	Email  string `json:"email"`
}

type e5QueryPage struct {
	Results       []e5Record `json:"results"`
	Total         *int       `json:"total"`
	NextPageToken *string    `json:"nextPageToken"`
}

type e5SearchResult struct {
	Results         []e5Record `json:"results"`
	TotalInScope    *int64     `json:"totalInScope"`
	SearchLatencyMs *float64   `json:"searchLatencyMs"`
}

type e5AskResult struct {
	Answer    *string `json:"answer"`
	Citations []struct {
		RecordID string `json:"recordId"`
		Snippet  string `json:"snippet"`
	} `json:"citations"`
	Confidence      *float64 `json:"confidence"`
	RecordsSearched *int64   `json:"recordsSearched"`
}

type e5Suggestion struct {
	Recommendation  string   `json:"recommendation"`
	Confidence      float64  `json:"confidence"`
	BasedOn         int      `json:"basedOn"`
	Scope           string   `json:"scope"`
	ScopeLabel      string   `json:"scopeLabel"`
	TopReasons      []string `json:"topReasons"`
	UniqueReviewers int      `json:"uniqueReviewers"`
	Caveats         []string `json:"caveats"`
}

type e5SuggestResult struct {
	Primary  *e5Suggestion `json:"primary"`
	Conflict *e5Suggestion `json:"conflict"`
}

// e5Bare calls a memory operation as c, fails unless it succeeded with a
// bare result (no status, no message, spec: the memory operations), and
// decodes result into out.
func (s *stack) e5Bare(c creds, path string, data map[string]any, out any) reply {
	s.t.Helper()
	r := s.callAs(c, path, data)
	if r.Code != 200 || r.Result == nil {
		s.t.Fatalf("%s %v: want success, got %d %s", path, data, r.Code, r.Raw)
	}
	for _, k := range []string{"status", "message", "data"} {
		if _, has := r.Result[k]; has {
			s.t.Fatalf("%s: result carries %q, the memory operations return bare results: %s", path, k, r.Raw)
		}
	}
	var env struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(r.Raw, &env); err != nil {
		s.t.Fatalf("%s: %v", path, err)
	}
	if err := json.Unmarshal(env.Result, out); err != nil {
		s.t.Fatalf("%s: decode result: %v: %s", path, err, r.Raw)
	}
	return r
}

func (s *stack) e5Search(c creds, data map[string]any) e5SearchResult {
	s.t.Helper()
	var out e5SearchResult
	r := s.e5Bare(c, "/v2/memory/search", data, &out)
	if out.TotalInScope == nil || out.SearchLatencyMs == nil || r.Result["results"] == nil {
		s.t.Fatalf("search result lacks results, totalInScope or searchLatencyMs: %s", r.Raw)
	}
	return out
}

func (s *stack) e5Query(c creds, data map[string]any) e5QueryPage {
	s.t.Helper()
	var out e5QueryPage
	r := s.e5Bare(c, "/v2/memory/judgments/query", data, &out)
	if out.Total == nil || r.Result["results"] == nil {
		s.t.Fatalf("judgments/query result lacks results or total: %s", r.Raw)
	}
	if *out.Total != len(out.Results) {
		s.t.Fatalf("judgments/query total %d, %d results", *out.Total, len(out.Results))
	}
	if _, has := r.Result["nextPageToken"]; !has {
		s.t.Fatalf("judgments/query result lacks nextPageToken (null on the last page): %s", r.Raw)
	}
	return out
}

// e5QueryAll pages through judgments/query (limit 100) and returns every
// record, checking that pages do not overlap and come newest first.
func (s *stack) e5QueryAll(c creds, filter map[string]any) []e5Record {
	s.t.Helper()
	var all []e5Record
	seen := map[string]bool{}
	token := ""
	for page := 0; ; page++ {
		if page > 50 {
			s.t.Fatalf("judgments/query %v: more than 50 pages", filter)
		}
		q := map[string]any{"limit": 100}
		for k, v := range filter {
			q[k] = v
		}
		if token != "" {
			q["pageToken"] = token
		}
		p := s.e5Query(c, q)
		for _, r := range p.Results {
			if seen[r.RecordID] {
				s.t.Fatalf("judgments/query %v: record %s on two pages", filter, r.RecordID)
			}
			seen[r.RecordID] = true
		}
		all = append(all, p.Results...)
		if p.NextPageToken == nil {
			return all
		}
		if *p.NextPageToken == "" || len(p.Results) != 100 {
			s.t.Fatalf("judgments/query %v: next page token %q after a page of %d", filter, *p.NextPageToken, len(p.Results))
		}
		token = *p.NextPageToken
	}
}

func (s *stack) e5Ask(c creds, data map[string]any) e5AskResult {
	s.t.Helper()
	var out e5AskResult
	r := s.e5Bare(c, "/v2/memory/ask", data, &out)
	if out.Answer == nil || out.Confidence == nil || out.RecordsSearched == nil || r.Result["citations"] == nil {
		s.t.Fatalf("ask result lacks answer, citations, confidence or recordsSearched: %s", r.Raw)
	}
	return out
}

func (s *stack) e5Suggest(c creds, data map[string]any) e5SuggestResult {
	s.t.Helper()
	var out e5SuggestResult
	r := s.e5Bare(c, "/v2/memory/suggest", data, &out)
	for _, k := range []string{"primary", "conflict"} {
		if _, has := r.Result[k]; !has {
			s.t.Fatalf("suggest result lacks %s: %s", k, r.Raw)
		}
	}
	return out
}

// e5ExpectIssues fails unless r is INVALID_ARGUMENT (400) whose
// error.details.issues name exactly the given fields.
func e5ExpectIssues(t *testing.T, r reply, fields ...string) {
	t.Helper()
	expectStatus(t, r, "INVALID_ARGUMENT", 400)
	details, _ := r.Error["details"].(map[string]any)
	list, ok := details["issues"].([]any)
	if !ok {
		t.Fatalf("error.details.issues missing: %s", r.Raw)
	}
	var got []string
	for _, it := range list {
		m, _ := it.(map[string]any)
		f, _ := m["field"].(string)
		if msg, _ := m["message"].(string); msg == "" {
			t.Fatalf("issue without message: %s", r.Raw)
		}
		got = append(got, f)
	}
	sort.Strings(got)
	want := slices.Clone(fields)
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Fatalf("issues name %v, want %v: %s", got, want, r.Raw)
	}
}

// e5Eventually polls cond every 200 ms until it holds or the deadline
// passes; then it fails with what cond last reported.
func e5Eventually(t *testing.T, deadline time.Duration, what string, cond func() (bool, string)) {
	t.Helper()
	end := time.Now().Add(deadline)
	for {
		ok, state := cond()
		if ok {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("%s: not reached within %v: %s", what, deadline, state)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// e5IDs returns the record ids of recs, sorted.
func e5IDs(recs []e5Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.RecordID
	}
	sort.Strings(out)
	return out
}

// e5Ordered returns the record ids of recs in their order.
func e5Ordered(recs []e5Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.RecordID
	}
	return out
}

// e5SameSet fails unless got and want hold the same ids.
func e5SameSet(t *testing.T, what string, got []e5Record, want []string) {
	t.Helper()
	g, w := e5IDs(got), slices.Clone(want)
	sort.Strings(w)
	if !slices.Equal(g, w) {
		t.Fatalf("%s: got %d records, want %d\nmissing: %v\nextra: %v", what, len(g), len(w), e5Minus(w, g), e5Minus(g, w))
	}
}

// e5Minus lists the ids of a not in b.
func e5Minus(a, b []string) []string {
	in := map[string]bool{}
	for _, x := range b {
		in[x] = true
	}
	var out []string
	for _, x := range a {
		if !in[x] {
			out = append(out, x)
		}
	}
	return out
}

func e5Short(recs []e5Record) string {
	parts := make([]string, len(recs))
	for i, r := range recs {
		sim := "-"
		if r.Similarity != nil {
			sim = fmt.Sprintf("%.3f", *r.Similarity)
		}
		parts[i] = fmt.Sprintf("%s(%s %s/%s %s %q)", r.RecordID, sim, r.OrganizationID, r.DocumentID, r.Decision, r.Reasoning)
	}
	return strings.Join(parts, ", ")
}
