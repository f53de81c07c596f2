package e2e

import (
	"fmt"
	"slices"
	"testing"
)

// e5TestQuery: /v2/memory/judgments/query (adjacent-operations §13) over
// the ingested seed.
func e5TestQuery(t *testing.T, s *stack, seed *e5Seed) {
	t.Run("every review activity became its judgment", func(t *testing.T) {
		s := s.e5For(t)
		all := s.e5QueryAll(s.ws, nil)
		e5SameSet(t, "workspace judgments", all, seed.judgments(nil))
		for i, r := range all {
			if i > 0 && r.CreatedAt > all[i-1].CreatedAt {
				t.Fatalf("not newest first: %s (%d) after %s (%d)", r.RecordID, r.CreatedAt, all[i-1].RecordID, all[i-1].CreatedAt)
			}
			a := seed.byID[r.RecordID]
			e5CheckRecord(t, r, a)
			if r.CreatedAt != seed.callAt[a.Call] {
				t.Fatalf("%s createdAt %d, the other records of its call %d", r.RecordID, r.CreatedAt, seed.callAt[a.Call])
			}
		}
		for _, a := range seed.acts {
			if !a.isJudgment() && seed.createdAt[a.ID] != 0 {
				t.Fatalf("%s (%s) is no review decision but became a judgment", a.ID, a.Kind.actionType)
			}
		}
	})

	t.Run("filters", func(t *testing.T) {
		s := s.e5For(t)
		cases := []struct {
			filter map[string]any
			keep   func(*e5Act) bool
		}{
			{map[string]any{"organizationId": e5OrgA}, e5InOrg(e5OrgA)},
			{map[string]any{"organizationId": e5OrgB}, e5InOrg(e5OrgB)},
			{map[string]any{"organizationId": e5OrgA, "documentId": e5DocA2}, e5InDoc(e5OrgA, e5DocA2)},
			{map[string]any{"organizationId": e5OrgB, "documentId": e5DocB2}, e5InDoc(e5OrgB, e5DocB2)},
			// documentId of another organization: nothing.
			{map[string]any{"organizationId": e5OrgB, "documentId": e5DocA1}, func(*e5Act) bool { return false }},
			// documentId alone is ignored: the whole workspace.
			{map[string]any{"documentId": e5DocA1}, nil},
			{map[string]any{"judgeType": "agent"}, func(a *e5Act) bool { return a.Kind.agent }},
			{map[string]any{"judgeType": "human", "organizationId": e5OrgA}, func(a *e5Act) bool { return !a.Kind.agent && a.Org == e5OrgA }},
			{map[string]any{"contentType": "landing-page"}, func(a *e5Act) bool { return a.Kind.contentType == "landing-page" }},
			{map[string]any{"reviewerId": "u-7"}, func(a *e5Act) bool { return a.userID() == "u-7" }},
			{map[string]any{"reviewerId": "spell-check", "organizationId": e5OrgA, "documentId": e5DocA3},
				func(a *e5Act) bool { return a.Kind.agent && a.Doc == e5DocA3 }},
			{map[string]any{"annotationId": e5ThreadAnnotation, "organizationId": e5OrgA},
				func(a *e5Act) bool { return a.Annotation == e5ThreadAnnotation }},
			{map[string]any{"annotationId": e5ThreadAnnotation, "organizationId": e5OrgB}, func(*e5Act) bool { return false }},
		}
		for _, d := range []string{"comment", "resolve", "approved", "rejected", "in_progress", "agree", "disagree", "endorse",
			"document_approved", "document_rejected"} {
			cases = append(cases, struct {
				filter map[string]any
				keep   func(*e5Act) bool
			}{map[string]any{"decision": d}, func(a *e5Act) bool { return a.Kind.decision == d }})
		}
		for _, c := range cases {
			t.Run(fmt.Sprint(c.filter), func(t *testing.T) {
				got := s.e5For(t).e5QueryAll(s.ws, c.filter)
				e5SameSet(t, fmt.Sprint(c.filter), got, seed.judgments(c.keep))
			})
		}
		// Every decision value of the mapping occurs in the seed, so the
		// cases above cannot all pass on empty results.
		if n := seed.count(func(a *e5Act) bool { return a.Kind.decision == "document_rejected" }); n == 0 {
			t.Fatal("seed has no document_rejected judgment")
		}
	})

	t.Run("pages", func(t *testing.T) {
		s := s.e5For(t)
		p := s.e5Query(s.ws, map[string]any{"organizationId": e5OrgB})
		if len(p.Results) != 20 || p.NextPageToken == nil || *p.NextPageToken == "" {
			t.Fatalf("default limit: %d results, next %v", len(p.Results), p.NextPageToken)
		}
		p2 := s.e5Query(s.ws, map[string]any{"organizationId": e5OrgB, "pageToken": *p.NextPageToken})
		if len(p2.Results) != 20 || p2.Results[0].CreatedAt > p.Results[19].CreatedAt ||
			slices.Contains(e5IDs(p.Results), p2.Results[0].RecordID) {
			t.Fatalf("second page does not continue the first: %s", e5Short(p2.Results[:1]))
		}
		// A token is bound to its query.
		r := s.call("/v2/memory/judgments/query", map[string]any{"organizationId": e5OrgA, "pageToken": *p.NextPageToken})
		e5ExpectIssues(t, r, "pageToken")
		e5ExpectIssues(t, s.call("/v2/memory/judgments/query", map[string]any{"pageToken": "no-such-token"}), "pageToken")
		// The thread: the newest records, oldest first, then older ones.
		th := s.e5Query(s.ws, map[string]any{"organizationId": e5OrgA, "annotationId": e5ThreadAnnotation, "limit": 2})
		if got := e5Ordered(th.Results); !slices.Equal(got, []string{"thr-b", "thr-a"}) || th.NextPageToken == nil {
			t.Fatalf("thread page 1 = %v, next %v; want [thr-b thr-a] and a next page", got, th.NextPageToken)
		}
		th2 := s.e5Query(s.ws, map[string]any{"organizationId": e5OrgA, "annotationId": e5ThreadAnnotation, "limit": 2,
			"pageToken": *th.NextPageToken})
		if got := e5Ordered(th2.Results); !slices.Equal(got, []string{"thr-d", "thr-c"}) || th2.NextPageToken != nil {
			t.Fatalf("thread page 2 = %v, next %v; want [thr-d thr-c] and no next page", got, th2.NextPageToken)
		}
		full := s.e5Query(s.ws, map[string]any{"organizationId": e5OrgA, "annotationId": e5ThreadAnnotation})
		if got := e5Ordered(full.Results); !slices.Equal(got, []string{"thr-d", "thr-c", "thr-b", "thr-a"}) {
			t.Fatalf("thread = %v, want oldest first [thr-d thr-c thr-b thr-a]", got)
		}
	})

	t.Run("validation", func(t *testing.T) {
		s := s.e5For(t)
		cases := []struct {
			data   map[string]any
			fields []string
		}{
			{map[string]any{"decision": "approve"}, []string{"decision"}},
			{map[string]any{"judgeType": "robot"}, []string{"judgeType"}},
			{map[string]any{"annotationId": e5ThreadAnnotation}, []string{"annotationId"}},
			{map[string]any{"limit": 0}, []string{"limit"}},
			{map[string]any{"limit": 101}, []string{"limit"}},
			{map[string]any{"limit": "ten"}, []string{"limit"}},
			{map[string]any{"decision": "maybe", "judgeType": "robot", "limit": 0}, []string{"decision", "judgeType", "limit"}},
		}
		for _, c := range cases {
			t.Run(fmt.Sprint(c.data), func(t *testing.T) {
				e5ExpectIssues(t, s.e5For(t).call("/v2/memory/judgments/query", c.data), c.fields...)
			})
		}
		for _, limit := range []int{1, 100} {
			if p := s.e5Query(s.ws, map[string]any{"limit": limit}); len(p.Results) != limit {
				t.Fatalf("limit %d: %d results", limit, len(p.Results))
			}
		}
	})
}

// e5CheckRecord compares a returned judgment with the activity it came
// from.
func e5CheckRecord(t *testing.T, r e5Record, a *e5Act) {
	t.Helper()
	if a == nil {
		t.Fatalf("judgment %s matches no seeded activity", r.RecordID)
	}
	wantReasoning := a.Reasoning
	if a.Kind.agent {
		wantReasoning = "Typo: recieve should be receive"
	}
	wantJudge := "human"
	if a.Kind.agent {
		wantJudge = "agent"
	}
	if r.Decision != a.Kind.decision || r.Reasoning != wantReasoning || r.Confidence != a.wantConfidence() ||
		r.JudgeType != wantJudge || r.ContentType != a.wantContentType() || r.ActionUser != a.wantUser() ||
		r.OrganizationID != a.Org || r.DocumentID != a.Doc || r.AnnotationID != a.Annotation {
		t.Fatalf("judgment of %s (%s) = %+v", a.ID, a.Kind.actionType, r)
	}
	if a.Kind.agent {
		if ag := e5AgentOf(t, r.Agent); ag["agentId"] != "spell-check" {
			t.Fatalf("judgment of %s: agent %s", a.ID, r.Agent)
		}
	} else if string(r.Agent) != "null" {
		t.Fatalf("judgment of %s by a human: agent %q, want null", a.ID, r.Agent)
	}
}
