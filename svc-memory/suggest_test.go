package svcmemory_test

import (
	"net/http"
	"slices"
	"sort"
	"testing"
	"time"

	svcmemory "github.com/opencollab/backend/svc-memory"
)

type suggestion struct {
	Recommendation  string   `json:"recommendation"`
	Confidence      float64  `json:"confidence"`
	BasedOn         int      `json:"basedOn"`
	Scope           string   `json:"scope"`
	ScopeLabel      string   `json:"scopeLabel"`
	TopReasons      []string `json:"topReasons"`
	UniqueReviewers int      `json:"uniqueReviewers"`
	Caveats         []string `json:"caveats"`
	Explanation     string   `json:"explanation"`
	Evidence        []struct {
		RecordID  string  `json:"recordId"`
		Decision  string  `json:"decision"`
		Relevance float64 `json:"relevance"`
		Recency   float64 `json:"recency"`
		Weight    float64 `json:"weight"`
	} `json:"evidence"`
}

type suggestResult struct {
	Primary  *suggestion `json:"primary"`
	Conflict *suggestion `json:"conflict"`
}

func (e *env) suggest(principal string, q map[string]any) suggestResult {
	e.T.Helper()
	var out suggestResult
	r := e.ok(principal, "/v2/memory/suggest", q, &out)
	if _, has := r.Result["status"]; has {
		e.T.Fatalf("suggest result shape: %v", r.Result)
	}
	for _, k := range []string{"primary", "conflict"} {
		if _, has := r.Result[k]; !has {
			e.T.Fatalf("suggest result without %s: %v", k, r.Result)
		}
	}
	return out
}

func seedPrecedent(e *env) {
	now := time.Now()
	old := now.Add(-days(200))
	e.ingest("ws1", 13,
		// d1: split, 3 approve (3 reviewers) vs 2 reject (1 reviewer).
		review("p1", "comment_annotation.approve", "o1", "d1", "a1", "u1", "Clear summary, ready to publish", now),
		review("p2", "comment_annotation.approve", "o1", "d1", "a2", "u2", "Summary is clear and ready to publish", now),
		review("p3", "comment_annotation.agree", "o1", "d1", "a3", "u3", "Clear summary, ready to publish", now),
		review("p4", "comment_annotation.reject", "o1", "d1", "a4", "u4", "Summary unclear, not ready to publish", now),
		review("p5", "comment_annotation.disagree", "o1", "d1", "a5", "u4", "The summary is not ready to publish", now),
		// Comments never count as precedent.
		review("p6", "comment.add", "o1", "d1", "a1", "u5", "Is the summary ready to publish?", now),
		// d2: two rejections only.
		review("t1", "comment_annotation.reject", "o1", "d2", "b1", "u1", "Tone is too informal for legal copy", now),
		review("t2", "comment_annotation.reject", "o1", "d2", "b2", "u2", "Informal tone, rewrite it", now),
		// d3: one approval of pricing.
		review("c1", "comment_annotation.approve", "o1", "d3", "c1", "u1", "Pricing table matches the spreadsheet", now),
		// d4: one each way about the logo.
		review("l1", "comment_annotation.approve", "o1", "d4", "d1", "u1", "Logo colour is right", now),
		review("l2", "comment_annotation.reject", "o1", "d4", "d2", "u2", "Logo colour is wrong", now),
		// d5: stale rejections of the disclaimer.
		review("o1", "comment_annotation.reject", "o1", "d5", "e1", "u1", "Legal disclaimer missing", old),
		review("o2", "document.reject", "o1", "d5", "e2", "u2", "Disclaimer missing from the footer", old),
	)
}

func TestSuggestSplitEvidence(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcmemory.Config{})
	seedPrecedent(e)
	got := e.suggest(ws1, map[string]any{"query": "Is this summary ready to publish?", "organizationId": "o1", "documentId": "d1"})
	p, c := got.Primary, got.Conflict
	if p == nil || c == nil {
		t.Fatalf("want primary and conflict: %+v", got)
	}
	split := "Evidence is split: 3 approve vs 2 reject"
	if p.Recommendation != "approve" || p.BasedOn != 3 || p.UniqueReviewers != 3 || p.Scope != "document" ||
		p.ScopeLabel != "this document" || !slices.Contains(p.Caveats, split) {
		t.Fatalf("primary %+v", p)
	}
	if c.Recommendation != "reject" || c.BasedOn != 2 || c.UniqueReviewers != 1 || !slices.Contains(c.Caveats, split) {
		t.Fatalf("conflict %+v", c)
	}
	if p.Confidence <= c.Confidence || p.Confidence > 1 || c.Confidence <= 0 {
		t.Fatalf("confidences %v / %v", p.Confidence, c.Confidence)
	}
	// Reasons are distinct (the duplicate approval reason appears once).
	if len(p.TopReasons) != 2 || p.TopReasons[0] == p.TopReasons[1] {
		t.Fatalf("top reasons %v", p.TopReasons)
	}
	// The evidence lists each side's judgments with their weights.
	if len(p.Evidence) != 3 || len(c.Evidence) != 2 || p.Explanation == "" || c.Explanation == "" {
		t.Fatalf("evidence %+v / %+v", p, c)
	}
	var lead, other float64
	for _, ev := range p.Evidence {
		if !slices.Contains([]string{"p1", "p2", "p3"}, ev.RecordID) || ev.Weight <= 0 || ev.Relevance <= 0 || ev.Recency <= 0 || ev.Recency > 1 {
			t.Fatalf("primary evidence %+v", ev)
		}
		lead += ev.Weight
	}
	for _, ev := range c.Evidence {
		if ev.RecordID != "p4" && ev.RecordID != "p5" {
			t.Fatalf("conflict evidence %+v", ev)
		}
		other += ev.Weight
	}
	if lead <= other {
		t.Fatalf("the leading side weighs %v, the other %v", lead, other)
	}
}

func TestSuggestRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcmemory.Config{})
	seedPrecedent(e)
	t.Run("one side only", func(t *testing.T) {
		got := e.suggest(ws1, map[string]any{"query": "informal tone", "organizationId": "o1", "documentId": "d2"})
		if got.Primary == nil || got.Conflict != nil || got.Primary.Recommendation != "reject" || got.Primary.BasedOn != 2 ||
			len(got.Primary.Caveats) != 0 || len(got.Primary.TopReasons) != 2 {
			t.Fatalf("%+v", got.Primary)
		}
	})
	t.Run("too little precedent anywhere", func(t *testing.T) {
		got := e.suggest(ws1, map[string]any{"query": "pricing table", "organizationId": "o1", "documentId": "d3"})
		if got.Primary != nil || got.Conflict != nil {
			t.Fatalf("%+v %+v", got.Primary, got.Conflict)
		}
	})
	t.Run("leading side below two", func(t *testing.T) {
		got := e.suggest(ws1, map[string]any{"query": "logo colour", "organizationId": "o1", "documentId": "d4"})
		if got.Primary != nil || got.Conflict != nil {
			t.Fatalf("%+v %+v", got.Primary, got.Conflict)
		}
	})
	t.Run("nothing relevant", func(t *testing.T) {
		got := e.suggest(ws1, map[string]any{"query": "weather in paris"})
		if got.Primary != nil || got.Conflict != nil {
			t.Fatalf("%+v %+v", got.Primary, got.Conflict)
		}
	})
	t.Run("falls back to the organization", func(t *testing.T) {
		got := e.suggest(ws1, map[string]any{"query": "informal tone", "organizationId": "o1", "documentId": "d3"})
		if got.Primary == nil || got.Primary.Scope != "organization" || got.Primary.ScopeLabel != "this organization" {
			t.Fatalf("%+v", got.Primary)
		}
	})
	t.Run("never another organization", func(t *testing.T) {
		// o2 has no precedent; o1's must not be used for it.
		got := e.suggest(ws1, map[string]any{"query": "informal tone", "organizationId": "o2"})
		if got.Primary != nil || got.Conflict != nil {
			t.Fatalf("%+v %+v", got.Primary, got.Conflict)
		}
	})
	t.Run("workspace", func(t *testing.T) {
		got := e.suggest(ws1, map[string]any{"query": "informal tone"})
		if got.Primary == nil || got.Primary.Scope != "apiKey" || got.Primary.ScopeLabel != "this workspace" {
			t.Fatalf("%+v", got.Primary)
		}
	})
	t.Run("stale precedent", func(t *testing.T) {
		got := e.suggest(ws1, map[string]any{"query": "disclaimer missing", "organizationId": "o1", "documentId": "d5"})
		if got.Primary == nil || !slices.Contains(got.Primary.Caveats, "Most precedent is older than 180 days") {
			t.Fatalf("%+v", got.Primary)
		}
	})
	t.Run("other workspace", func(t *testing.T) {
		if got := e.suggest(ws2, map[string]any{"query": "Is this summary ready to publish?"}); got.Primary != nil {
			t.Fatalf("ws2 got ws1's precedent: %+v", got.Primary)
		}
	})
}

func TestSuggestValidation(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcmemory.Config{})
	r := e.fails(ws1, "/v2/memory/suggest", map[string]any{"documentId": "d1"}, http.StatusBadRequest, "INVALID_ARGUMENT")
	got := r.issueFields()
	sort.Strings(got)
	if !slices.Equal(got, []string{"documentId", "query"}) {
		t.Fatalf("issues %v", got)
	}
}
