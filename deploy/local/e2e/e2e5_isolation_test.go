package e2e

import (
	"fmt"
	"slices"
	"testing"
)

// e5TestIsolation: a second workspace sees none of the first one's
// judgments and cannot reach its custom agents; the same activity id in
// both stays two judgments.
func e5TestIsolation(t *testing.T, s *stack, seed *e5Seed) {
	other := s.newWorkspace()

	t.Run("memory reads", func(t *testing.T) {
		s := s.e5For(t)
		for _, filter := range []map[string]any{{}, {"organizationId": e5OrgA}, {"organizationId": e5OrgA, "annotationId": e5ThreadAnnotation}} {
			if p := s.e5Query(other, filter); len(p.Results) != 0 || p.NextPageToken != nil {
				t.Fatalf("judgments/query %v in the other workspace: %s", filter, e5Short(p.Results))
			}
		}
		for _, data := range []map[string]any{
			{"query": "Is the copy clear?", "limit": 50},
			{"query": "logo contrast", "organizationId": e5OrgA, "documentId": e5DocA2},
			{"recencyDays": 365, "limit": 50},
			{"organizationId": e5OrgA, "filters": map[string]any{"annotationId": e5ThreadAnnotation}},
		} {
			if got := s.e5Search(other, data); len(got.Results) != 0 || *got.TotalInScope != 0 {
				t.Fatalf("search %v in the other workspace: totalInScope %d, %s", data, *got.TotalInScope, e5Short(got.Results))
			}
		}
		if got := s.e5Ask(other, map[string]any{"question": "Is the logo contrast too low?"}); *got.Answer != "" ||
			len(got.Citations) != 0 || *got.RecordsSearched != 0 {
			t.Fatalf("ask in the other workspace: %+v", got)
		}
		if got := s.e5Suggest(other, map[string]any{"query": "logo contrast", "organizationId": e5OrgA, "documentId": e5DocA2}); got.Primary != nil || got.Conflict != nil {
			t.Fatalf("suggest in the other workspace: %+v %+v", got.Primary, got.Conflict)
		}
		// Control: the first workspace sees them.
		if got := s.e5Search(s.ws, map[string]any{"recencyDays": 365, "limit": 1}); *got.TotalInScope != int64(seed.count(nil)) {
			t.Fatalf("control: totalInScope %d", *got.TotalInScope)
		}
	})

	t.Run("custom agents", func(t *testing.T) {
		s := s.e5For(t)
		id := s.e5CreateAgent(s.ws, "Private agent")
		want := s.e5Agent(s.ws, id)
		expectStatus(t, s.callAs(other, "/v2/agents/get", map[string]any{"agentId": id}), "NOT_FOUND", 404)
		expectStatus(t, s.callAs(other, "/v2/agents/update", map[string]any{"agentId": id, "enabled": false, "name": "Taken"}), "NOT_FOUND", 404)
		expectStatus(t, s.callAs(other, "/v2/agents/update", map[string]any{"agentId": id}), "NOT_FOUND", 404)
		expectStatus(t, s.callAs(other, "/v2/agents/version/update", map[string]any{"agentId": id, "instructions": "Taken over."}), "NOT_FOUND", 404)
		if v := s.e5Versions(other, id); len(v) != 0 {
			t.Fatalf("the other workspace lists versions of %s: %v", id, v)
		}
		expectOK(t, s.callAs(other, "/v2/agents/delete", map[string]any{"agentId": id})) // unknown there: idempotent success
		if ids := e5AgentIDs(s.e5AgentList(other, map[string]any{"filter": "customOnly"})); len(ids) != 0 {
			t.Fatalf("the other workspace lists custom agents %v", ids)
		}
		if ids := e5AgentIDs(s.e5AgentList(other, map[string]any{})); !slices.Equal(ids, e5Builtins) {
			t.Fatalf("the other workspace lists %v, want only the built-ins", ids)
		}
		if got := s.e5Agent(s.ws, id); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("the other workspace changed %s: %v → %v", id, want, got)
		}
		if v := s.e5Versions(s.ws, id); len(v) != 1 {
			t.Fatalf("versions of %s: %v", id, v)
		}
		// Built-in switches are per workspace.
		expectOK(t, s.call("/v2/agents/update", map[string]any{"agentId": "lighthouse", "enabled": false}))
		if a := s.e5Agent(other, "lighthouse"); a["enabled"] != true {
			t.Fatalf("disabling lighthouse reached the other workspace: %v", a)
		}
		expectOK(t, s.callAs(other, "/v2/agents/update", map[string]any{"agentId": "lorem-ipsum", "enabled": false}))
		if a := s.e5Agent(s.ws, "lorem-ipsum"); a["enabled"] != true {
			t.Fatalf("the other workspace disabled lorem-ipsum here: %v", a)
		}
		if a := s.e5Agent(s.ws, "lighthouse"); a["enabled"] != false {
			t.Fatalf("control: lighthouse = %v", a)
		}
	})

	t.Run("same activity id in both workspaces", func(t *testing.T) {
		s := s.e5For(t)
		mine := seed.byID["a2-001"]
		if mine == nil || mine.Kind.decision != "rejected" {
			t.Fatalf("seed precondition: a2-001 = %+v", mine)
		}
		act := map[string]any{"id": mine.ID, "featureType": "comment", "actionType": "comment_annotation.approve",
			"targetEntityId": mine.Annotation, "actionUser": map[string]any{"userId": "u-9", "name": "Other Reviewer"},
			"entityData": map[string]any{"commentText": "Logo contrast is perfect now"}}
		expectOK(t, s.callAs(other, "/v2/activities/add", map[string]any{"organizationId": e5OrgA, "documentId": e5DocA2, "activities": []any{act}}))
		var theirs []e5Record
		e5Eventually(t, e5SeedDeadline, "the other workspace's judgment", func() (bool, string) {
			theirs = s.e5Search(other, map[string]any{"query": "logo contrast perfect", "organizationId": e5OrgA}).Results
			return len(theirs) == 1, e5Short(theirs)
		})
		if r := theirs[0]; r.RecordID != mine.ID || r.Decision != "approved" || r.Reasoning != "Logo contrast is perfect now" {
			t.Fatalf("the other workspace's judgment: %+v", r)
		}
		found := false
		for _, r := range s.e5QueryAll(s.ws, map[string]any{"organizationId": e5OrgA, "documentId": e5DocA2}) {
			if r.RecordID == mine.ID {
				e5CheckRecord(t, r, mine)
				found = true
			}
		}
		if !found {
			t.Fatalf("%s is gone from this workspace", mine.ID)
		}
		got := s.e5Search(s.ws, map[string]any{"query": "Logo contrast is perfect now", "organizationId": e5OrgA, "documentId": e5DocA2, "limit": 50})
		if *got.TotalInScope != int64(seed.count(e5InDoc(e5OrgA, e5DocA2))) {
			t.Fatalf("totalInScope %d after the other workspace wrote", *got.TotalInScope)
		}
		for _, r := range got.Results {
			if r.Reasoning == "Logo contrast is perfect now" {
				t.Fatalf("the other workspace's judgment reached this one: %+v", r)
			}
		}
	})
}

// e5TestActivityChanges: updating an activity re-derives its judgment and
// deleting it removes the judgment, from store and index. It runs in an
// organization of its own, after every other subtest.
func e5TestActivityChanges(t *testing.T, s *stack) {
	const org, doc, id = "e5-org-c", "e5-doc-c1", "c-001"
	act := map[string]any{"id": id, "featureType": "comment", "actionType": "comment_annotation.approve", "targetEntityId": "ann-c",
		"actionUser": map[string]any{"userId": "u-1", "name": "Reviewer 1"},
		"entityData": map[string]any{"commentText": "Navigation labels are clear"}}
	expectOK(t, s.call("/v2/activities/add", map[string]any{"organizationId": org, "documentId": doc, "activities": []any{act}}))
	reasoning := func() (string, string) {
		p := s.e5Query(s.ws, map[string]any{"organizationId": org})
		if len(p.Results) != 1 {
			return "", e5Short(p.Results)
		}
		return p.Results[0].Reasoning, e5Short(p.Results)
	}
	e5Eventually(t, e5SeedDeadline, "judgment of the added activity", func() (bool, string) {
		r, state := reasoning()
		return r == "Navigation labels are clear", state
	})

	r := s.call("/v2/activities/update", map[string]any{"organizationId": org, "activities": []any{
		map[string]any{"id": id, "entityData": map[string]any{"commentText": "Navigation labels are confusing"}}}})
	expectOK(t, r)
	if item, _ := r.DataMap()[id].(map[string]any); item["success"] != true {
		t.Fatalf("activities/update: %s", r.Raw)
	}
	e5Eventually(t, e5SeedDeadline, "judgment of the updated activity", func() (bool, string) {
		r, state := reasoning()
		return r == "Navigation labels are confusing", state
	})
	e5Eventually(t, e5SeedDeadline, "updated judgment searchable", func() (bool, string) {
		got := s.e5Search(s.ws, map[string]any{"query": "navigation labels confusing", "organizationId": org})
		return len(got.Results) == 1 && got.Results[0].Reasoning == "Navigation labels are confusing", e5Short(got.Results)
	})

	r = s.call("/v2/activities/delete", map[string]any{"organizationId": org, "activityIds": []string{id}})
	expectOK(t, r)
	e5Eventually(t, e5SeedDeadline, "judgment of the deleted activity gone", func() (bool, string) {
		p := s.e5Query(s.ws, map[string]any{"organizationId": org})
		return len(p.Results) == 0, e5Short(p.Results)
	})
	got := s.e5Search(s.ws, map[string]any{"query": "navigation labels confusing", "organizationId": org})
	if len(got.Results) != 0 || *got.TotalInScope != 0 {
		t.Fatalf("search after delete: totalInScope %d, %s", *got.TotalInScope, e5Short(got.Results))
	}
}
