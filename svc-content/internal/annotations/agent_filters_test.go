package annotations_test

import (
	"slices"
	"testing"

	. "github.com/opencollab/backend/svc-content/internal/annotations"
)

// agentAnnotations adds, to doc1: r1 by the built-in reviewer (run-1, a
// pending suggestion), r2 by the reviewer (run-2, stamped for another
// page), m1 by the custom agent, x1 by an external one (stamped for no
// page), p1 a plain annotation with an agent's reply.
func agentAnnotations(t *testing.T) *fixture {
	f, _ := newAgentFixture(t)
	item := func(id string, b map[string]any) AnnotationInput {
		return AnnotationInput{AnnotationID: id, CommentData: []CommentInput{agentComment(b, id)}}
	}
	r1 := item("r1", agentBlock(AgentSourceBuiltin, "reviewer", nil))
	r1.Type = "suggestion"
	_, err := f.addItems("doc1", r1,
		item("r2", agentBlock(AgentSourceBuiltin, "reviewer", map[string]any{"executionId": "run-2", "url": "https://app.example.com/other"})),
		item("m1", agentBlock(AgentSourceBuiltin, "mine", nil)),
		item("x1", agentBlock(AgentSourceExternal, "ext", map[string]any{"url": nil})),
		AnnotationInput{AnnotationID: "p1", CommentData: []CommentInput{comment("alice", "plain"), agentComment(agentBlock(AgentSourceBuiltin, "mine", nil), "reply")}})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func sortedIDs(f *fixture, req GetRequest) []string {
	got := ids(f.get("ws1", req).Data.([]*AnnotationView))
	slices.Sort(got)
	return got
}

func TestGetByAgentFilter(t *testing.T) {
	f := agentAnnotations(t)
	for name, tc := range map[string]struct {
		req  GetRequest
		want []string
	}{
		"none":          {GetRequest{}, []string{"m1", "p1", "r1", "r2", "x1"}},
		"agentComments": {GetRequest{AgentComments: true}, []string{"m1", "r1", "r2", "x1"}},
		"agentId":       {GetRequest{AgentID: "reviewer"}, []string{"r1", "r2"}},
		"executionId":   {GetRequest{ExecutionID: "run-2"}, []string{"r2"}},
		"custom":        {GetRequest{AgentType: AgentTypeCustom}, []string{"m1"}},
		"built-in":      {GetRequest{AgentType: AgentTypeBuiltin}, []string{"r1", "r2"}},
		"external":      {GetRequest{AgentSource: AgentSourceExternal}, []string{"x1"}},
		"builtin":       {GetRequest{AgentSource: AgentSourceBuiltin}, []string{"m1", "r1", "r2"}},
		"suggestions":   {GetRequest{AgentSuggestions: true}, []string{"r1"}},
		"and a filter":  {GetRequest{AgentID: "reviewer", AnnotationIDs: []string{"r2", "m1"}}, []string{"<null>", "r2"}},
		"unknown agent": {GetRequest{AgentID: "nobody"}, []string{}},
	} {
		if got := sortedIDs(f, tc.req); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", name, got, tc.want)
		}
	}
	// An accepted suggestion is no longer a pending one.
	if _, err := f.update("ws1", Filters{AnnotationIDs: []string{"r1"}}, `{"suggestion":{"status":"accepted"}}`); err != nil {
		t.Fatal(err)
	}
	if got := sortedIDs(f, GetRequest{AgentSuggestions: true}); len(got) != 0 {
		t.Errorf("suggestions after accepting r1: %v", got)
	}
}

// Delete's agent filters AND-combine with each other and the id filter;
// agentUrls compares pages (host case, fragment and trailing slash aside),
// and an annotation stamped for no page never matches.
func TestDeleteByAgentFilters(t *testing.T) {
	f := agentAnnotations(t)
	del := func(req DeleteRequest) []string {
		t.Helper()
		req.OrganizationID, req.DocumentID = "org1", "doc1"
		res, err := f.svc.Delete(t.Context(), "ws1", req)
		if err != nil {
			t.Fatal(err)
		}
		var gone []string
		for id, r := range res {
			if r.Success {
				gone = append(gone, id)
			}
		}
		slices.Sort(gone)
		return gone
	}
	if got := del(DeleteRequest{AgentURLs: []string{"https://APP.example.com/page", "not a url"}, AgentID: "mine"}); !slices.Equal(got, []string{"m1"}) {
		t.Fatalf("agentUrls and agentId: deleted %v, want m1", got)
	}
	if got := del(DeleteRequest{AgentSuggestions: true, AnnotationIDs: []string{"r2", "x1"}}); len(got) != 0 {
		t.Fatalf("agentSuggestions within r2, x1: deleted %v, want none", got)
	}
	if got := del(DeleteRequest{AgentURLs: []string{"https://app.example.com/page/"}}); !slices.Equal(got, []string{"r1"}) {
		t.Fatalf("agentUrls: deleted %v, want r1", got)
	}
	if _, err := f.svc.Delete(t.Context(), "ws1", DeleteRequest{OrganizationID: "org1", DocumentID: "doc1", AgentURLs: []string{"ftp://x", " "}}); err == nil {
		t.Fatal("agentUrls naming no page was accepted")
	}
	if got := sortedIDs(f, GetRequest{}); !slices.Equal(got, []string{"p1", "r2", "x1"}) {
		t.Fatalf("left: %v", got)
	}
}
