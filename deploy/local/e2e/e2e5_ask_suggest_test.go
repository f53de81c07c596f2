package e2e

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// e5TestAsk: /v2/memory/ask answers from the seeded judgments, citing
// real records, and answers nothing when nothing is relevant.
func e5TestAsk(t *testing.T, s *stack, seed *e5Seed) {
	const logoQuestion = "Is the logo contrast too low?"
	logo := seed.judgments(e5OfTopic("logo"))

	t.Run("nothing relevant", func(t *testing.T) {
		s := s.e5For(t)
		for _, c := range []struct {
			data  map[string]any
			total int
		}{
			{map[string]any{"question": "What is the weather in Paris?"}, seed.count(nil)},
			{map[string]any{"question": "How many vacation days do I have?", "organizationId": e5OrgA}, seed.count(e5InOrg(e5OrgA))},
			// Relevant records exist, but not in this organization.
			{map[string]any{"question": logoQuestion, "organizationId": e5OrgB}, seed.count(e5InOrg(e5OrgB))},
			// Nor among the agents' judgments.
			{map[string]any{"question": logoQuestion, "filters": map[string]any{"judgeType": "agent"}}, seed.count(nil)},
		} {
			got := s.e5Ask(s.ws, c.data)
			if *got.Answer != "" || *got.Confidence != 0 || len(got.Citations) != 0 || *got.RecordsSearched != int64(c.total) {
				t.Fatalf("%v: answer %q confidence %v citations %v recordsSearched %d (want \"\", 0, none, %d)",
					c.data, *got.Answer, *got.Confidence, got.Citations, *got.RecordsSearched, c.total)
			}
		}
	})

	t.Run("relevant records are cited", func(t *testing.T) {
		s := s.e5For(t)
		got := s.e5Ask(s.ws, map[string]any{"question": logoQuestion})
		if *got.Answer == "" || !strings.Contains(strings.ToLower(*got.Answer), "logo") ||
			*got.Confidence <= 0 || *got.Confidence > 1 || len(got.Citations) == 0 || *got.RecordsSearched != int64(seed.count(nil)) {
			t.Fatalf("ask: %+v (answer %q)", got, *got.Answer)
		}
		// The citations are records search finds for the same question.
		found := e5IDs(s.e5Search(s.ws, map[string]any{"query": logoQuestion, "limit": 8}).Results)
		for _, c := range got.Citations {
			a := seed.byID[c.RecordID]
			if a == nil || !slices.Contains(logo, c.RecordID) || !slices.Contains(found, c.RecordID) {
				t.Fatalf("citation %s is not a logo judgment search returns (%v)", c.RecordID, found)
			}
			if c.Snippet != a.Reasoning {
				t.Fatalf("citation %s snippet %q, its reasoning is %q", c.RecordID, c.Snippet, a.Reasoning)
			}
		}
	})

	t.Run("location and filters narrow retrieval", func(t *testing.T) {
		s := s.e5For(t)
		doc := s.e5Ask(s.ws, map[string]any{"question": logoQuestion, "organizationId": e5OrgA, "documentId": e5DocA2})
		if *doc.Answer == "" || len(doc.Citations) == 0 || *doc.RecordsSearched != int64(seed.count(e5InDoc(e5OrgA, e5DocA2))) {
			t.Fatalf("document ask: %+v", doc)
		}
		approved := seed.judgments(func(a *e5Act) bool { return a.Kind.topic == "logo" && a.Kind.decision == "approved" })
		got := s.e5Ask(s.ws, map[string]any{"question": logoQuestion, "filters": map[string]any{"decision": "approved"}})
		if *got.Answer == "" || len(got.Citations) == 0 {
			t.Fatalf("ask about approvals: %+v", got)
		}
		for _, c := range got.Citations {
			if !slices.Contains(approved, c.RecordID) {
				t.Fatalf("citation %s with filter decision approved; approved logo judgments are %v", c.RecordID, approved)
			}
		}
		recent := s.e5Ask(s.ws, map[string]any{"question": logoQuestion, "recencyDays": 1})
		if *recent.Answer == "" || len(recent.Citations) == 0 {
			t.Fatalf("ask within a day: %+v", recent)
		}
	})

	t.Run("validation", func(t *testing.T) {
		s := s.e5For(t)
		for _, c := range []struct {
			data   map[string]any
			fields []string
		}{
			{map[string]any{}, []string{"question"}},
			{map[string]any{"question": "  "}, []string{"question"}},
			{map[string]any{"question": logoQuestion, "documentId": e5DocA2}, []string{"documentId"}},
			{map[string]any{"question": logoQuestion, "recencyDays": 0}, []string{"recencyDays"}},
			{map[string]any{"question": logoQuestion, "recencyDays": 366}, []string{"recencyDays"}},
			{map[string]any{"question": logoQuestion, "filters": map[string]any{"decision": "maybe"}}, []string{"filters.decision"}},
			{map[string]any{"question": "", "documentId": e5DocA2, "filters": map[string]any{"annotationId": e5ThreadAnnotation}},
				[]string{"question", "documentId", "filters.annotationId"}},
		} {
			e5ExpectIssues(t, s.call("/v2/memory/ask", c.data), c.fields...)
		}
	})
}

// e5TestSuggest: /v2/memory/suggest on the seeded split of docA2 (6
// rejections by 3 reviewers against 3 approvals and 1 agreement by 2),
// the one-sided legal disclaimer of docB1, and too little precedent.
func e5TestSuggest(t *testing.T, s *stack, seed *e5Seed) {
	reasonsOf := func(keep func(*e5Act) bool) []string {
		var out []string
		for _, id := range seed.judgments(keep) {
			if r := seed.byID[id].Reasoning; !slices.Contains(out, r) {
				out = append(out, r)
			}
		}
		return out
	}
	logoReject := reasonsOf(func(a *e5Act) bool { return a.Kind.topic == "logo" && a.Kind.decision == "rejected" })
	logoApprove := reasonsOf(func(a *e5Act) bool {
		return a.Kind.topic == "logo" && (a.Kind.decision == "approved" || a.Kind.decision == "agree")
	})
	checkSide := func(t *testing.T, sg *e5Suggestion, rec string, basedOn, reviewers int, reasons []string, scope, label string) {
		t.Helper()
		if sg == nil {
			t.Fatalf("no %s suggestion", rec)
		}
		if sg.Recommendation != rec || sg.BasedOn != basedOn || sg.UniqueReviewers != reviewers || sg.Scope != scope ||
			sg.ScopeLabel != label || sg.Confidence <= 0 || sg.Confidence > 1 || sg.Caveats == nil {
			t.Fatalf("%s suggestion %+v, want basedOn %d, %d reviewers, scope %s (%s)", rec, sg, basedOn, reviewers, scope, label)
		}
		if len(sg.TopReasons) != min(3, len(reasons)) {
			t.Fatalf("%s topReasons %q, want %d of %q", rec, sg.TopReasons, min(3, len(reasons)), reasons)
		}
		for i, r := range sg.TopReasons {
			if !slices.Contains(reasons, r) || slices.Contains(sg.TopReasons[:i], r) {
				t.Fatalf("%s topReasons %q: %q is not a distinct reason of that side (%q)", rec, sg.TopReasons, r, reasons)
			}
		}
	}
	checkSplit := func(t *testing.T, got e5SuggestResult, scope, label string) {
		t.Helper()
		checkSide(t, got.Primary, "reject", 6, 3, logoReject, scope, label)
		checkSide(t, got.Conflict, "approve", 4, 2, logoApprove, scope, label)
		for _, sg := range []*e5Suggestion{got.Primary, got.Conflict} {
			if !slices.ContainsFunc(sg.Caveats, func(c string) bool { return strings.Contains(strings.ToLower(c), "split") }) {
				t.Fatalf("split evidence without a conflict caveat: %+v", sg)
			}
		}
		if got.Primary.Confidence <= got.Conflict.Confidence || math.Abs(got.Primary.Confidence+got.Conflict.Confidence-1) > 0.001 {
			t.Fatalf("confidences %v (primary) and %v (conflict)", got.Primary.Confidence, got.Conflict.Confidence)
		}
	}

	t.Run("split evidence gives primary and conflict", func(t *testing.T) {
		s := s.e5For(t)
		checkSplit(t, s.e5Suggest(s.ws, map[string]any{"query": "logo contrast", "organizationId": e5OrgA, "documentId": e5DocA2}),
			"document", "this document")
	})
	t.Run("falls back to wider scopes", func(t *testing.T) {
		s := s.e5For(t)
		checkSplit(t, s.e5Suggest(s.ws, map[string]any{"query": "logo contrast", "organizationId": e5OrgA, "documentId": e5DocA1}),
			"organization", "this organization")
		// Organization B has no logo precedent, and another
		// organization's judgments are never its precedent.
		if got := s.e5Suggest(s.ws, map[string]any{"query": "logo contrast", "organizationId": e5OrgB, "documentId": e5DocB1}); got.Primary != nil || got.Conflict != nil {
			t.Fatalf("organization B got another organization's precedent: %+v %+v", got.Primary, got.Conflict)
		}
		checkSplit(t, s.e5Suggest(s.ws, map[string]any{"query": "logo contrast"}), "apiKey", "this workspace")
	})
	t.Run("one-sided evidence has no conflict", func(t *testing.T) {
		s := s.e5For(t)
		got := s.e5Suggest(s.ws, map[string]any{"query": "legal disclaimer", "organizationId": e5OrgB, "documentId": e5DocB1})
		checkSide(t, got.Primary, "reject", 5, 2, reasonsOf(e5OfTopic("legal")), "document", "this document")
		if got.Conflict != nil || len(got.Primary.Caveats) != 0 {
			t.Fatalf("one-sided, fresh evidence: conflict %+v, caveats %q", got.Conflict, got.Primary.Caveats)
		}
	})
	t.Run("fewer than two records give no suggestion", func(t *testing.T) {
		s := s.e5For(t)
		for _, data := range []map[string]any{
			// One relevant rejection in the whole workspace.
			{"query": "favicon blurry", "organizationId": e5OrgB, "documentId": e5DocB2},
			{"query": "favicon blurry"},
			// A thread of four: one agreement, one disagreement, a comment
			// and a resolution (neither of the last two is precedent).
			{"query": "Is the hero image too dark?", "organizationId": e5OrgA, "documentId": e5DocA1},
			// Relevant, but no decision for or against.
			{"query": "Working on the new screenshots"},
			// Nothing relevant.
			{"query": "What is the weather in Paris?"},
		} {
			if got := s.e5Suggest(s.ws, data); got.Primary != nil || got.Conflict != nil {
				t.Fatalf("%v: primary %+v conflict %+v, want null and null", data, got.Primary, got.Conflict)
			}
		}
	})
	t.Run("validation", func(t *testing.T) {
		s := s.e5For(t)
		e5ExpectIssues(t, s.call("/v2/memory/suggest", map[string]any{}), "query")
		e5ExpectIssues(t, s.call("/v2/memory/suggest", map[string]any{"query": " "}), "query")
		e5ExpectIssues(t, s.call("/v2/memory/suggest", map[string]any{"query": "logo contrast", "documentId": e5DocA2}), "documentId")
		e5ExpectIssues(t, s.call("/v2/memory/suggest", map[string]any{"query": "", "documentId": e5DocA2}), "query", "documentId")
	})
}
