package e2e

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"
)

// The seed of the memory tests: 300 review activities ingested through
// /v2/activities/add (activity → event → judgment → index), across two
// organizations and five documents, with a model of the judgments each
// one must become (svc-memory/internal/judgment's mapping).

const (
	e5OrgA, e5OrgB     = "e5-org-a", "e5-org-b"
	e5DocA1, e5DocA2   = "e5-doc-a1", "e5-doc-a2"
	e5DocA3, e5DocB1   = "e5-doc-a3", "e5-doc-b1"
	e5DocB2            = "e5-doc-b2"
	e5ThreadAnnotation = "ann-hero"
	e5SeedSize         = 300
	e5SeedDeadline     = 180 * time.Second // generous: ~20 s unloaded, over 90 s seen on the shared 2-core machine at load 15-22
)

// e5Act is one seeded activity and the judgment it must become.
type e5Act struct {
	ID, Org, Doc, Annotation string
	Kind                     e5Kind
	Reviewer                 int
	Reasoning                string
	Call                     int
}

func (a e5Act) isJudgment() bool { return a.Kind.decision != "" }

func (a e5Act) userID() string {
	if a.Kind.agent {
		return "spell-check"
	}
	return fmt.Sprintf("u-%d", a.Reviewer)
}

// wantUser is the actionUser the judgment carries.
func (a e5Act) wantUser() e5User {
	if a.Kind.agent {
		return e5User{UserID: "spell-check", Name: "Spell Check"}
	}
	return e5User{UserID: a.userID(), Name: fmt.Sprintf("Reviewer %d", a.Reviewer), Email: fmt.Sprintf("u-%d@example.com", a.Reviewer)}
}

func (a e5Act) wantConfidence() float64 {
	switch {
	case a.Kind.agent:
		return 0.73
	case slices.Contains([]string{"approved", "rejected", "document_approved", "document_rejected"}, a.Kind.decision):
		return 1
	}
	return 0.8
}

func (a e5Act) wantContentType() string {
	if a.Kind.contentType != "" {
		return a.Kind.contentType
	}
	return "comment"
}

// payload is the activity as /v2/activities/add takes it.
func (a e5Act) payload() map[string]any {
	m := map[string]any{
		"id": a.ID, "featureType": a.Kind.featureType, "actionType": a.Kind.actionType, "targetEntityId": a.Annotation,
	}
	if a.Kind.agent {
		m["actionUser"] = map[string]any{"userId": "spell-check", "name": "Spell Check", "type": "agent"}
		m["entityData"] = map[string]any{"agent": map[string]any{"agentId": "spell-check", "agentName": "Spell Check",
			"reason": map[string]any{"title": "Typo", "description": "recieve should be receive", "confidence": 73}}}
	} else {
		m["actionUser"] = map[string]any{"userId": a.userID(), "name": fmt.Sprintf("Reviewer %d", a.Reviewer),
			"email": fmt.Sprintf("u-%d@example.com", a.Reviewer)}
		if a.Reasoning != "" {
			m["entityData"] = map[string]any{"commentText": a.Reasoning}
		}
	}
	if a.Kind.content != "" {
		m["entityTargetData"] = map[string]any{"text": a.Kind.content, "contentType": a.Kind.contentType}
	}
	if a.Kind.status != "" {
		types := map[string]string{"RESOLVED": "terminal", "IN_PROGRESS": "ongoing", "OPEN": "default"}
		m["changes"] = map[string]any{"status": map[string]any{
			"from": map[string]any{"id": "OPEN", "name": "Open", "type": "default"},
			"to":   map[string]any{"id": a.Kind.status, "name": a.Kind.status, "type": types[a.Kind.status]},
		}}
	}
	return m
}

// e5Call is one /v2/activities/add call: one document, up to 100 records.
type e5Call struct {
	Org, Doc string
	Acts     []*e5Act
}

// e5Seed is the seeded data and, after ingestion, what the system made
// of it.
type e5Seed struct {
	calls []e5Call
	acts  []*e5Act
	byID  map[string]*e5Act
	// After ingestion: createdAt of every judgment and of every call.
	createdAt map[string]int64
	callAt    []int64
}

// e5BuildSeed lays out the 300 activities.
func e5BuildSeed() *e5Seed {
	s := &e5Seed{byID: map[string]*e5Act{}}
	rotation := 0
	type part struct {
		kind  e5Kind
		count int
	}
	addCall := func(org, doc, prefix string, parts ...part) {
		call := e5Call{Org: org, Doc: doc}
		for _, p := range parts {
			for i := 0; i < p.count; i++ {
				a := &e5Act{Org: org, Doc: doc, Kind: p.kind, Call: len(s.calls)}
				a.ID = fmt.Sprintf("%s-%03d", prefix, len(call.Acts)+1)
				a.Annotation = "ann-" + a.ID
				if len(p.kind.reasons) > 0 {
					a.Reasoning = p.kind.reasons[i%len(p.kind.reasons)]
				}
				if p.kind.reviewers != nil {
					a.Reviewer = p.kind.reviewers[i%len(p.kind.reviewers)]
				} else {
					a.Reviewer = rotation%5 + 1 // u-1 … u-5
					rotation++
				}
				call.Acts = append(call.Acts, a)
			}
		}
		s.calls = append(s.calls, call)
	}
	addCall(e5OrgA, e5DocA1, "a1",
		part{kindCopyApprove, 30}, part{kindCopyReject, 10}, part{kindPricingApprove, 8}, part{kindPricingReject, 4},
		part{kindCitation, 8}, part{kindOnboarding, 15}, part{kindAgentTypo, 10}, part{kindResolve, 5},
		part{kindReaction, 4}, part{kindThreadAdd, 3}, part{kindCRDT, 3})
	addCall(e5OrgA, e5DocA2, "a2",
		part{kindLogoReject, 6}, part{kindLogoApprove, 3}, part{kindLogoAgree, 1}, part{kindLogoComment, 2},
		part{kindCopyApprove, 30}, part{kindCopyReject, 8}, part{kindOnboarding, 20}, part{kindInProgress, 10},
		part{kindDocApprove, 5}, part{kindEndorse, 5}, part{kindReopen, 5}, part{kindEditAComment, 5})
	addCall(e5OrgA, e5DocA3, "a3", part{kindCopyApprove, 10}, part{kindCitation, 5}, part{kindAgentTypo, 5})
	addCall(e5OrgB, e5DocB1, "b1",
		part{kindLegal, 5}, part{kindCopyApprove, 15}, part{kindPricingApprove, 5}, part{kindOnboarding, 10}, part{kindDocReject, 5})
	addCall(e5OrgB, e5DocB2, "b2",
		part{kindFavicon, 1}, part{kindCopyApprove, 10}, part{kindCopyReject, 5}, part{kindResolve, 5}, part{kindInProgress, 5},
		part{kindReaction, 5}, part{kindCRDT, 5})
	// One comment thread, one record per call so each has its own
	// timestamp; the ids run backwards so id order is not time order.
	thread := []struct {
		id       string
		kind     e5Kind
		reviewer int
		reason   string
	}{
		{"thr-d", e5Kind{featureType: "comment", actionType: "comment.add", decision: "comment"}, 1, "Hero image is too dark"},
		{"thr-c", e5Kind{featureType: "comment", actionType: "comment_annotation.agree", decision: "agree"}, 2, "Agree, brighten the hero image"},
		{"thr-b", e5Kind{featureType: "comment", actionType: "comment_annotation.disagree", decision: "disagree"}, 3, "Disagree, the hero image is fine as is"},
		{"thr-a", e5Kind{featureType: "comment", actionType: "comment_annotation.status_change", status: "RESOLVED", decision: "resolve"}, 1, "Hero image brightened"},
	}
	for _, th := range thread {
		th.kind.name, th.kind.topic = "thread", "hero"
		a := &e5Act{ID: th.id, Org: e5OrgA, Doc: e5DocA1, Annotation: e5ThreadAnnotation, Kind: th.kind,
			Reviewer: th.reviewer, Reasoning: th.reason, Call: len(s.calls)}
		s.calls = append(s.calls, e5Call{Org: e5OrgA, Doc: e5DocA1, Acts: []*e5Act{a}})
	}
	for _, c := range s.calls {
		for _, a := range c.Acts {
			s.acts = append(s.acts, a)
			s.byID[a.ID] = a
		}
	}
	return s
}

// judgments returns the ids of the expected judgments matching keep.
func (s *e5Seed) judgments(keep func(a *e5Act) bool) []string {
	var out []string
	for _, a := range s.acts {
		if a.isJudgment() && (keep == nil || keep(a)) {
			out = append(out, a.ID)
		}
	}
	return out
}

func (s *e5Seed) count(keep func(a *e5Act) bool) int { return len(s.judgments(keep)) }

func e5InOrg(org string) func(*e5Act) bool { return func(a *e5Act) bool { return a.Org == org } }

func e5InDoc(org, doc string) func(*e5Act) bool {
	return func(a *e5Act) bool { return a.Org == org && a.Doc == doc }
}

func e5OfTopic(topic string) func(*e5Act) bool {
	return func(a *e5Act) bool { return a.Kind.topic == topic }
}

// e5Ingest sends the seed through /v2/activities/add, then waits until
// every expected judgment is listed by judgments/query and the last one
// is found by vector search (the consumer handles events in order, so
// the rest are indexed too).
func e5Ingest(t *testing.T, s *stack, seed *e5Seed) {
	t.Helper()
	if len(seed.acts) != e5SeedSize {
		t.Fatalf("seed has %d activities, want %d", len(seed.acts), e5SeedSize)
	}
	for i, c := range seed.calls {
		if len(c.Acts) > 100 {
			t.Fatalf("call %d has %d activities", i, len(c.Acts))
		}
		acts := make([]any, len(c.Acts))
		for j, a := range c.Acts {
			acts[j] = a.payload()
		}
		r := s.call("/v2/activities/add", map[string]any{"organizationId": c.Org, "documentId": c.Doc, "activities": acts})
		expectOK(t, r)
		if r.DataMap()["success"] != true {
			t.Fatalf("activities/add call %d: %s", i, r.Raw)
		}
		time.Sleep(3 * time.Millisecond) // the calls get distinct timestamps (ms)
	}
	// The thread went in last: once judgments/query lists all of it, the
	// consumer (in stream order) has had every event; the full listing
	// is then polled too, in case it was not in order.
	thread := seed.judgments(func(a *e5Act) bool { return a.Annotation == e5ThreadAnnotation })
	e5Eventually(t, e5SeedDeadline, "judgments of the last calls ingested", func() (bool, string) {
		p := s.e5Query(s.ws, map[string]any{"organizationId": e5OrgA, "annotationId": e5ThreadAnnotation})
		return len(p.Results) == len(thread), e5Short(p.Results)
	})
	want := seed.count(nil)
	var all []e5Record
	e5Eventually(t, e5SeedDeadline, "all judgments ingested", func() (bool, string) {
		all = s.e5QueryAll(s.ws, nil)
		return len(all) >= want, fmt.Sprintf("%d of %d judgments", len(all), want)
	})
	seed.createdAt = map[string]int64{}
	for _, r := range all {
		seed.createdAt[r.RecordID] = r.CreatedAt
	}
	seed.callAt = make([]int64, len(seed.calls))
	for i, c := range seed.calls {
		for _, a := range c.Acts {
			if at, ok := seed.createdAt[a.ID]; ok {
				seed.callAt[i] = at
			}
		}
	}
	last := seed.acts[len(seed.acts)-1]
	e5Eventually(t, e5SeedDeadline, "last judgment indexed", func() (bool, string) {
		res := s.e5Search(s.ws, map[string]any{"query": last.Reasoning, "organizationId": last.Org, "documentId": last.Doc,
			"limit": 1, "filters": map[string]any{"decision": last.Kind.decision}})
		return len(res.Results) == 1 && res.Results[0].RecordID == last.ID, e5Short(res.Results)
	})
}

// e5CheckSeedTimes checks what later assertions rely on: every call got
// its own timestamp, in call order.
func e5CheckSeedTimes(t *testing.T, seed *e5Seed) {
	t.Helper()
	for i := 1; i < len(seed.callAt); i++ {
		if seed.callAt[i] <= seed.callAt[i-1] {
			t.Fatalf("seed precondition: call %d at %d, call %d at %d (want strictly increasing)", i-1, seed.callAt[i-1], i, seed.callAt[i])
		}
	}
}

// e5AgentOf decodes a judgment's agent object.
func e5AgentOf(t *testing.T, raw json.RawMessage) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("agent %s: %v", raw, err)
	}
	return m
}
