package e2e

import (
	"slices"
	"testing"
	"time"
)

// e5TestSearchFilters: each filter of the vector path, checked against
// the seed: every match comes back (limit 50 exceeds each set), nothing
// else does.
func e5TestSearchFilters(t *testing.T, s *stack, seed *e5Seed) {
	at := func(call int) int64 { return seed.callAt[call] }
	iso := func(ms int64) string { return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z07:00") }
	rejectSide := []string{"rejected", "disagree", "document_rejected"}
	approveSide := []string{"approved", "agree", "endorse", "document_approved"}
	cases := []struct {
		name string
		data map[string]any
		keep func(*e5Act) bool
	}{
		{"decision", map[string]any{"organizationId": e5OrgA, "documentId": e5DocA3, "filters": map[string]any{"decision": "rejected"}},
			func(a *e5Act) bool { return a.Doc == e5DocA3 && a.Kind.decision == "rejected" }},
		{"decision reject side", map[string]any{"organizationId": e5OrgA, "documentId": e5DocA2, "filters": map[string]any{"decision": "reject"}},
			func(a *e5Act) bool { return a.Doc == e5DocA2 && slices.Contains(rejectSide, a.Kind.decision) }},
		{"decision approve side", map[string]any{"organizationId": e5OrgB, "filters": map[string]any{"decision": "approve"}},
			func(a *e5Act) bool { return a.Org == e5OrgB && slices.Contains(approveSide, a.Kind.decision) }},
		{"decision list", map[string]any{"organizationId": e5OrgA, "documentId": e5DocA2, "filters": map[string]any{"decision": []string{"approved", "agree"}}},
			func(a *e5Act) bool {
				return a.Doc == e5DocA2 && (a.Kind.decision == "approved" || a.Kind.decision == "agree")
			}},
		{"decision nowhere in scope", map[string]any{"organizationId": e5OrgB, "filters": map[string]any{"decision": "endorse"}},
			func(*e5Act) bool { return false }},
		{"judgeType agent", map[string]any{"filters": map[string]any{"judgeType": "agent"}},
			func(a *e5Act) bool { return a.Kind.agent }},
		{"judgeType human with decision", map[string]any{"organizationId": e5OrgA, "documentId": e5DocA3,
			"filters": map[string]any{"judgeType": "human", "decision": "rejected"}},
			func(a *e5Act) bool { return a.Doc == e5DocA3 && !a.Kind.agent && a.Kind.decision == "rejected" }},
		{"reviewerId", map[string]any{"filters": map[string]any{"reviewerId": "u-7"}},
			func(a *e5Act) bool { return a.userID() == "u-7" }},
		{"reviewerId with decision", map[string]any{"organizationId": e5OrgA, "documentId": e5DocA1,
			"filters": map[string]any{"reviewerId": "u-1", "decision": "rejected"}},
			func(a *e5Act) bool { return a.Doc == e5DocA1 && a.userID() == "u-1" && a.Kind.decision == "rejected" }},
		{"contentType", map[string]any{"organizationId": e5OrgB, "filters": map[string]any{"contentType": "landing-page"}},
			func(a *e5Act) bool { return a.Org == e5OrgB && a.Kind.contentType == "landing-page" }},
		{"excludeDocumentIds", map[string]any{"organizationId": e5OrgA, "filters": map[string]any{"excludeDocumentIds": []string{e5DocA1, e5DocA2}}},
			func(a *e5Act) bool { return a.Org == e5OrgA && a.Doc != e5DocA1 && a.Doc != e5DocA2 }},
		{"excludeDocumentIds across organizations", map[string]any{"filters": map[string]any{"excludeDocumentIds": []string{e5DocA1, e5DocA2, e5DocB1, e5DocB2}}},
			func(a *e5Act) bool { return a.Doc == e5DocA3 }},
		{"dateRange of one call (epoch ms)", map[string]any{"filters": map[string]any{"dateRange": map[string]any{"start": at(2), "end": at(2)}}},
			func(a *e5Act) bool { return a.Call == 2 }},
		{"dateRange of one call (ISO-8601)", map[string]any{"filters": map[string]any{"dateRange": map[string]any{"start": iso(at(3)), "end": iso(at(3))}}},
			func(a *e5Act) bool { return a.Call == 3 }},
		{"dateRange open end", map[string]any{"filters": map[string]any{"dateRange": map[string]any{"start": at(5)}}},
			func(a *e5Act) bool { return a.Call >= 5 }},
		{"dateRange before the seed", map[string]any{"filters": map[string]any{"dateRange": map[string]any{"end": at(0) - 1}}},
			func(*e5Act) bool { return false }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := s.e5For(t)
			want := seed.judgments(c.keep)
			if len(want) > 50 {
				t.Fatalf("case selects %d records, more than one search returns", len(want))
			}
			data := map[string]any{"query": "Is the copy clear?", "limit": 50}
			for k, v := range c.data {
				data[k] = v
			}
			got := s.e5Search(s.ws, data)
			e5SameSet(t, c.name, got.Results, want)
		})
	}
	t.Run("dateRange end keeps earlier records only", func(t *testing.T) {
		s := s.e5For(t)
		got := s.e5Search(s.ws, map[string]any{"query": "Is the copy clear?", "limit": 50,
			"filters": map[string]any{"dateRange": map[string]any{"end": at(0)}}})
		if len(got.Results) != 50 {
			t.Fatalf("%d results, want 50 of the %d of the first call", len(got.Results), seed.count(func(a *e5Act) bool { return a.Call == 0 }))
		}
		for _, r := range got.Results {
			if r.CreatedAt != at(0) {
				t.Fatalf("record after the range: %s at %d", r.RecordID, r.CreatedAt)
			}
		}
	})
}

// e5TestThreadAndRecency: the paths that skip vector search.
func e5TestThreadAndRecency(t *testing.T, s *stack, seed *e5Seed) {
	thread := func(t *testing.T, s *stack, extra map[string]any) []e5Record {
		data := map[string]any{"organizationId": e5OrgA, "filters": map[string]any{"annotationId": e5ThreadAnnotation}}
		for k, v := range extra {
			data[k] = v
		}
		return s.e5Search(s.ws, data).Results
	}
	expectSimilarityOne := func(t *testing.T, recs []e5Record) {
		t.Helper()
		for _, r := range recs {
			if r.Similarity == nil || *r.Similarity != 1 {
				t.Fatalf("similarity of %s is not 1.0: %s", r.RecordID, e5Short(recs))
			}
		}
	}
	t.Run("annotation thread oldest first", func(t *testing.T) {
		s := s.e5For(t)
		got := thread(t, s, nil)
		if ids := e5Ordered(got); !slices.Equal(ids, []string{"thr-d", "thr-c", "thr-b", "thr-a"}) {
			t.Fatalf("thread = %v, want [thr-d thr-c thr-b thr-a]", ids)
		}
		expectSimilarityOne(t, got)
		for i, r := range got {
			e5CheckRecord(t, r, seed.byID[r.RecordID])
			if i > 0 && r.CreatedAt <= got[i-1].CreatedAt {
				t.Fatalf("thread not oldest first: %s", e5Short(got))
			}
		}
		// The query is ignored on this path.
		if ids := e5Ordered(thread(t, s, map[string]any{"query": "pricing spreadsheet totals"})); !slices.Equal(ids, []string{"thr-d", "thr-c", "thr-b", "thr-a"}) {
			t.Fatalf("thread with a query = %v", ids)
		}
		if ids := e5Ordered(thread(t, s, map[string]any{"limit": 2})); !slices.Equal(ids, []string{"thr-b", "thr-a"}) {
			t.Fatalf("thread limit 2 = %v, want the newest two oldest first [thr-b thr-a]", ids)
		}
		if got := thread(t, s, map[string]any{"organizationId": e5OrgB}); len(got) != 0 {
			t.Fatalf("thread in another organization: %s", e5Short(got))
		}
		if got := thread(t, s, map[string]any{"documentId": e5DocA2}); len(got) != 0 {
			t.Fatalf("thread in another document: %s", e5Short(got))
		}
		filtered := thread(t, s, map[string]any{"filters": map[string]any{"annotationId": e5ThreadAnnotation, "decision": "agree"}})
		if ids := e5Ordered(filtered); !slices.Equal(ids, []string{"thr-c"}) {
			t.Fatalf("thread with decision agree = %v", ids)
		}
	})

	t.Run("recencyDays", func(t *testing.T) {
		s := s.e5For(t)
		loc := map[string]any{"organizationId": e5OrgA, "documentId": e5DocA1, "recencyDays": 1, "limit": 3}
		got := s.e5Search(s.ws, loc).Results
		if ids := e5Ordered(got); !slices.Equal(ids, []string{"thr-a", "thr-b", "thr-c"}) {
			t.Fatalf("recency = %v, want the newest three [thr-a thr-b thr-c]", ids)
		}
		expectSimilarityOne(t, got)
		// recencyDays overrides filters.dateRange.
		loc["filters"] = map[string]any{"dateRange": map[string]any{"start": "2000-01-01", "end": "2000-01-02"}}
		if ids := e5Ordered(s.e5Search(s.ws, loc).Results); !slices.Equal(ids, []string{"thr-a", "thr-b", "thr-c"}) {
			t.Fatalf("recency with an old dateRange = %v", ids)
		}
		// The same dateRange without recencyDays finds nothing.
		delete(loc, "recencyDays")
		loc["query"] = "Is the copy clear?"
		if res := s.e5Search(s.ws, loc).Results; len(res) != 0 {
			t.Fatalf("dateRange in 2000 matched %s", e5Short(res))
		}
		if ids := e5Ordered(s.e5Search(s.ws, map[string]any{"organizationId": e5OrgA, "recencyDays": 30,
			"filters": map[string]any{"decision": "disagree"}}).Results); !slices.Equal(ids, []string{"thr-b"}) {
			t.Fatalf("recency with decision disagree = %v", ids)
		}
		all := s.e5Search(s.ws, map[string]any{"recencyDays": 365, "limit": 50})
		if len(all.Results) != 50 || all.Results[0].RecordID != "thr-a" || *all.TotalInScope != int64(seed.count(nil)) {
			t.Fatalf("workspace recency: %d results, first %s, totalInScope %d", len(all.Results), all.Results[0].RecordID, *all.TotalInScope)
		}
		expectSimilarityOne(t, all.Results)
		for i := 1; i < len(all.Results); i++ {
			if all.Results[i].CreatedAt > all.Results[i-1].CreatedAt {
				t.Fatalf("recency not newest first at %d: %s", i, e5Short(all.Results[i-1:i+1]))
			}
		}
	})
}
