package e2e

import (
	"encoding/json"
	"testing"
)

// e5TestSearchValidation: every invalid search names its fields in
// error.details.issues; the bounds themselves are accepted.
func e5TestSearchValidation(t *testing.T, s *stack) {
	dateRange := func(start, end any) map[string]any {
		return map[string]any{"dateRange": map[string]any{"start": start, "end": end}}
	}
	cases := []struct {
		name   string
		data   map[string]any
		fields []string
	}{
		{"no query", map[string]any{}, []string{"query"}},
		{"empty query", map[string]any{"query": ""}, []string{"query"}},
		{"blank query", map[string]any{"query": "   "}, []string{"query"}},
		{"bad embeddingType", map[string]any{"query": "copy", "embeddingType": "fulltext"}, []string{"embeddingType"}},
		{"documentId without organizationId", map[string]any{"query": "copy", "documentId": e5DocA1}, []string{"documentId"}},
		{"limit 0", map[string]any{"query": "copy", "limit": 0}, []string{"limit"}},
		{"limit 51", map[string]any{"query": "copy", "limit": 51}, []string{"limit"}},
		{"recencyDays 0", map[string]any{"query": "copy", "recencyDays": 0}, []string{"recencyDays"}},
		{"recencyDays 366", map[string]any{"query": "copy", "recencyDays": 366}, []string{"recencyDays"}},
		{"dateRange start after end (ISO)", map[string]any{"query": "copy", "filters": dateRange("2025-02-01T00:00:00Z", "2025-01-01T00:00:00Z")},
			[]string{"filters.dateRange"}},
		{"dateRange start after end (epoch ms)", map[string]any{"query": "copy", "filters": dateRange(1700000001000, 1700000000000)},
			[]string{"filters.dateRange"}},
		{"dateRange not a date", map[string]any{"query": "copy", "filters": dateRange("yesterday", nil)}, []string{"filters.dateRange.start"}},
		{"annotationId without organizationId", map[string]any{"query": "copy", "filters": map[string]any{"annotationId": e5ThreadAnnotation}},
			[]string{"filters.annotationId"}},
		{"bad decision", map[string]any{"query": "copy", "filters": map[string]any{"decision": "maybe"}}, []string{"filters.decision"}},
		{"bad judgeType", map[string]any{"query": "copy", "filters": map[string]any{"judgeType": "robot"}}, []string{"filters.judgeType"}},
		{"bad scope", map[string]any{"query": "copy", "scope": "galaxy"}, []string{"scope"}},
		{"document scope without documentId", map[string]any{"query": "copy", "scope": "document", "organizationId": e5OrgA}, []string{"scope"}},
		{"limit of the wrong type", map[string]any{"query": "copy", "limit": "10"}, []string{"limit"}},
		{"several at once", map[string]any{"query": "", "embeddingType": "fulltext", "limit": 51, "documentId": e5DocA1, "recencyDays": 0},
			[]string{"embeddingType", "limit", "documentId", "recencyDays"}},
		{"several at once, no recency", map[string]any{"query": "", "embeddingType": "fulltext", "limit": 0,
			"filters": dateRange(2000, 1000)}, []string{"query", "embeddingType", "limit", "filters.dateRange"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e5ExpectIssues(t, s.e5For(t).call("/v2/memory/search", c.data), c.fields...)
		})
	}
	t.Run("bounds are accepted", func(t *testing.T) {
		s := s.e5For(t)
		for _, c := range []struct {
			data map[string]any
			want int
		}{
			{map[string]any{"query": "Is the copy clear?", "limit": 1}, 1},
			{map[string]any{"query": "Is the copy clear?", "limit": 50}, 50},
			{map[string]any{"recencyDays": 1, "limit": 5}, 5},
			{map[string]any{"recencyDays": 365, "limit": 5}, 5},
			{map[string]any{"query": "Is the copy clear?", "filters": dateRange(0, "2100-01-01")}, 10},
		} {
			if got := s.e5Search(s.ws, c.data); len(got.Results) != c.want {
				t.Fatalf("%v: %d results, want %d", c.data, len(got.Results), c.want)
			}
		}
	})
}

// e5TestSearch: ranking, scopes, totalInScope, embedding types and the
// shape of a result.
func e5TestSearch(t *testing.T, s *stack, seed *e5Seed) {
	total := seed.count(nil)
	t.Run("result shape", func(t *testing.T) {
		s := s.e5For(t)
		r := s.call("/v2/memory/search", map[string]any{"query": "Typo recieve receive", "limit": 3,
			"filters": map[string]any{"judgeType": "agent"}})
		var env struct {
			Result struct {
				Results []map[string]json.RawMessage `json:"results"`
			} `json:"result"`
		}
		if err := json.Unmarshal(r.Raw, &env); err != nil || len(env.Result.Results) != 3 {
			t.Fatalf("search: %v %s", err, r.Raw)
		}
		for _, res := range env.Result.Results {
			for _, k := range []string{"recordId", "reasoning", "decision", "confidence", "actionUser", "createdAt", "similarity", "scope", "agent"} {
				if _, has := res[k]; !has {
					t.Fatalf("result lacks %s: %s", k, r.Raw)
				}
			}
			var user e5User
			if json.Unmarshal(res["actionUser"], &user) != nil || user.Name == "" {
				t.Fatalf("actionUser without name: %s", res["actionUser"])
			}
		}
	})

	t.Run("review ranking, default scope and limit", func(t *testing.T) {
		s := s.e5For(t)
		got := s.e5Search(s.ws, map[string]any{"query": "Is the copy clear?"})
		if len(got.Results) != 10 || *got.TotalInScope != int64(total) || *got.SearchLatencyMs < 0 {
			t.Fatalf("%d results, totalInScope %d (want 10, %d): %s", len(got.Results), *got.TotalInScope, total, e5Short(got.Results))
		}
		for i, r := range got.Results {
			if seed.byID[r.RecordID].Kind.topic != "copy" || r.Scope != "apiKey" || *r.Similarity <= 0 || *r.Similarity > 1 {
				t.Fatalf("result %d: %s", i, e5Short(got.Results[i:i+1]))
			}
			if i > 0 && *r.Similarity > *got.Results[i-1].Similarity {
				t.Fatalf("not most similar first: %s", e5Short(got.Results))
			}
			e5CheckRecord(t, r, seed.byID[r.RecordID])
		}
		one := s.e5Search(s.ws, map[string]any{"query": "Favicon looks blurry on retina screens"})
		if fav := seed.judgments(e5OfTopic("favicon")); len(one.Results) == 0 || one.Results[0].RecordID != fav[0] {
			t.Fatalf("favicon search: %s", e5Short(one.Results))
		}
		legal := s.e5Search(s.ws, map[string]any{"query": "Legal disclaimer missing", "limit": 5})
		e5SameSet(t, "legal disclaimer search", legal.Results, seed.judgments(e5OfTopic("legal")))
	})

	t.Run("document scope", func(t *testing.T) {
		s := s.e5For(t)
		logo := seed.judgments(e5OfTopic("logo"))
		got := s.e5Search(s.ws, map[string]any{"query": "logo contrast", "organizationId": e5OrgA, "documentId": e5DocA2, "limit": len(logo)})
		e5SameSet(t, "logo records of docA2", got.Results, logo)
		if *got.TotalInScope != int64(seed.count(e5InDoc(e5OrgA, e5DocA2))) {
			t.Fatalf("totalInScope %d, want %d", *got.TotalInScope, seed.count(e5InDoc(e5OrgA, e5DocA2)))
		}
		for _, r := range got.Results {
			if r.Scope != "document" {
				t.Fatalf("scope %q in a document search: %s", r.Scope, e5Short(got.Results))
			}
		}
	})

	t.Run("organization scope", func(t *testing.T) {
		s := s.e5For(t)
		got := s.e5Search(s.ws, map[string]any{"query": "Is the copy clear?", "organizationId": e5OrgB, "limit": 50})
		if len(got.Results) != 50 || *got.TotalInScope != int64(seed.count(e5InOrg(e5OrgB))) {
			t.Fatalf("%d results, totalInScope %d, want 50 and %d", len(got.Results), *got.TotalInScope, seed.count(e5InOrg(e5OrgB)))
		}
		for _, r := range got.Results {
			if r.OrganizationID != e5OrgB || r.Scope != "organization" {
				t.Fatalf("organization search: %s", e5Short([]e5Record{r}))
			}
		}
		// scope organization widens a document location to its organization.
		wide := s.e5Search(s.ws, map[string]any{"query": "Is the copy clear?", "scope": "organization",
			"organizationId": e5OrgA, "documentId": e5DocA1, "limit": 50})
		if *wide.TotalInScope != int64(seed.count(e5InOrg(e5OrgA))) {
			t.Fatalf("totalInScope %d, want %d", *wide.TotalInScope, seed.count(e5InOrg(e5OrgA)))
		}
		docs := map[string]bool{}
		for _, r := range wide.Results {
			if r.OrganizationID != e5OrgA {
				t.Fatalf("organization scope returned %s", e5Short([]e5Record{r}))
			}
			docs[r.DocumentID] = true
		}
		if len(docs) < 2 {
			t.Fatalf("organization scope stayed in one document: %v", docs)
		}
	})

	t.Run("workspace scope around a location", func(t *testing.T) {
		s := s.e5For(t)
		got := s.e5Search(s.ws, map[string]any{"query": "Is the copy clear?", "scope": "apiKey",
			"organizationId": e5OrgA, "documentId": e5DocA1, "limit": 50})
		if len(got.Results) != 50 || *got.TotalInScope != int64(total) {
			t.Fatalf("%d results, totalInScope %d, want 50 and %d", len(got.Results), *got.TotalInScope, total)
		}
		seen := map[string]bool{}
		for _, r := range got.Results {
			want := "apiKey"
			switch {
			case r.OrganizationID == e5OrgA && r.DocumentID == e5DocA1:
				want = "document"
			case r.OrganizationID == e5OrgA:
				want = "organization"
			}
			if r.Scope != want {
				t.Fatalf("scope %q, want %q: %s", r.Scope, want, e5Short([]e5Record{r}))
			}
			seen[r.OrganizationID] = true
		}
		if !seen[e5OrgB] {
			t.Fatalf("workspace scope returned only %v", seen)
		}
	})

	t.Run("content embedding", func(t *testing.T) {
		s := s.e5For(t)
		content := s.e5Search(s.ws, map[string]any{"query": "homepage headline", "embeddingType": "content", "limit": 5})
		review := s.e5Search(s.ws, map[string]any{"query": "homepage headline", "embeddingType": "review", "limit": 5})
		if len(content.Results) != 5 || len(review.Results) != 5 {
			t.Fatalf("content %d, review %d results", len(content.Results), len(review.Results))
		}
		for _, r := range content.Results {
			if seed.byID[r.RecordID].Kind.content != e5CopyContent {
				t.Fatalf("content search for the headline returned %s", e5Short([]e5Record{r}))
			}
		}
		if *content.Results[0].Similarity <= *review.Results[0].Similarity {
			t.Fatalf("the headline is content, not reasoning: content %.3f <= review %.3f",
				*content.Results[0].Similarity, *review.Results[0].Similarity)
		}
	})
}
