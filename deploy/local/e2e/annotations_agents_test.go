package e2e

import (
	"slices"
	"testing"
)

// Agent comments through the whole system: svc-content looks a built-in
// or custom agent up in svc-memory (its kind and name; an unknown one is
// NOT_FOUND), an external agent is taken as sent, and the agent filters of
// get and delete select the agent annotations.
func TestAgentAnnotationsThroughGateway(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	const org, doc = "acme", "d1"
	custom := s.e5CreateAgent(s.ws, "Brand voice")
	block := func(source, id string) map[string]any {
		b := map[string]any{"agentSource": source, "agentId": id, "url": "https://app.example.com/pricing",
			"reason": map[string]any{"title": "Off-brand", "description": "too formal", "severity": "medium", "findingId": "find-" + id}}
		if source == "external" {
			b["agentName"] = "Their linter"
		}
		return b
	}
	annotation := func(id, source, agent string) map[string]any {
		a := e3AnnotationIn(id, "", "bot", "finding")
		a["commentData"].([]any)[0].(map[string]any)["agent"] = block(source, agent)
		return a
	}
	r := s.e3AddAnnotations(s.ws, org, doc, annotation("b1", "builtin", "spell-check"), annotation("c1", "builtin", custom),
		annotation("x1", "external", "lint-bot"), e3AnnotationIn("p1", "", "ann", "plain"))
	if it := item(t, r, "c1"); it["findingId"] != "find-"+custom {
		t.Fatalf("findingId not echoed: %v", it)
	}
	for id, want := range map[string][2]string{"b1": {"built-in", "Spell Check"}, "c1": {"custom", "Brand voice"}, "x1": {"external", "Their linter"}} {
		a := s.e3Annotation(s.ws, org, doc, id)
		agent, _ := a["agent"].(map[string]any)
		if a["sourceType"] != "agent" || agent["agentType"] != want[0] || agent["agentName"] != want[1] {
			t.Errorf("%s: sourceType %v, agent %v; want %v", id, a["sourceType"], agent, want)
		}
	}
	s.fails("/v2/commentannotations/add", map[string]any{"organizationId": org, "documentId": doc,
		"commentAnnotations": []any{annotation("n1", "builtin", "no-such-agent")}}, "NOT_FOUND", 404)

	get := func(filter map[string]any) []string {
		t.Helper()
		filter["organizationId"] = org
		got := e3AnnotationIDs(t, s.ok("/v2/commentannotations/get", filter))
		slices.Sort(got)
		return got
	}
	if got := get(map[string]any{"agentComments": true}); !slices.Equal(got, []string{"b1", "c1", "x1"}) {
		t.Errorf("agentComments: %v", got)
	}
	if got := get(map[string]any{"agentType": "custom"}); !slices.Equal(got, []string{"c1"}) {
		t.Errorf("agentType custom: %v", got)
	}
	d := s.ok("/v2/commentannotations/delete", map[string]any{"organizationId": org, "documentId": doc,
		"agentId": "lint-bot", "agentUrls": []string{"https://APP.example.com/pricing/"}})
	if it := item(t, d, "x1"); it["success"] != true || len(d.DataMap()) != 1 {
		t.Fatalf("delete by agent: %s", d.Raw)
	}
	if got := s.e3DocumentAnnotations(s.ws, org, doc); !slices.Equal(got, []string{"b1", "c1", "p1"}) {
		t.Fatalf("left after the delete: %v", got)
	}
}
