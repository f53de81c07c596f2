package annotations_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/opencollab/backend/pkg/api"

	. "github.com/opencollab/backend/svc-content/internal/annotations"
)

// directory is an AgentDirectory over a fixed map, counting its lookups.
type directory struct {
	agents  map[string]AgentInfo
	lookups int
}

func (d *directory) Agent(_ context.Context, _, id string) (AgentInfo, error) {
	d.lookups++
	info, ok := d.agents[id]
	if !ok {
		return AgentInfo{}, api.Errorf(api.NotFound, "agent %s not found", id)
	}
	return info, nil
}

func newAgentFixture(t *testing.T) (*fixture, *directory) {
	f := newFixture(t)
	d := &directory{agents: map[string]AgentInfo{
		"reviewer": {Type: AgentTypeBuiltin, Name: "Reviewer"},
		"mine":     {Type: AgentTypeCustom, Name: "My agent"},
	}}
	f.svc.WithAgents(d)
	return f, d
}

// agentBlock is a valid agent block; extra sets or overrides its keys.
func agentBlock(source, id string, extra map[string]any) map[string]any {
	b := map[string]any{"agentSource": source, "agentId": id, "executionId": "run-1", "url": "https://App.example.com/page/#top",
		"reason": map[string]any{"title": "Typo", "description": "teh", "severity": "low", "findingId": "f-" + id, "confidence": 90.0, "custom": "kept"}}
	if source == AgentSourceExternal {
		b["agentName"] = "Their bot"
	}
	for k, v := range extra {
		b[k] = v
	}
	return b
}

func agentComment(b map[string]any, text string) CommentInput {
	c := comment("bot", text)
	c.Agent = b
	return c
}

func (f *fixture) addItems(doc string, items ...AnnotationInput) (map[string]AddItemResult, error) {
	return f.svc.Add(f.t.Context(), "ws1", AddRequest{OrganizationID: "org1", DocumentID: doc, CommentAnnotations: items})
}

// An agent's root comment makes an agent annotation: the comment and the
// annotation carry the block, completed with the agent's kind and (for an
// agent of this deployment) its name; the add echoes the findingId.
func TestAgentCommentsMarkTheAnnotation(t *testing.T) {
	f, d := newAgentFixture(t)
	res, err := f.addItems("doc1",
		AnnotationInput{AnnotationID: "a1", CommentData: []CommentInput{
			agentComment(agentBlock(AgentSourceBuiltin, "reviewer", map[string]any{"agentName": "ignored"}), "found"),
			comment("alice", "thanks"),
		}},
		AnnotationInput{AnnotationID: "a2", CommentData: []CommentInput{agentComment(agentBlock(AgentSourceBuiltin, "reviewer", nil), "again")}},
		AnnotationInput{AnnotationID: "a3", CommentData: []CommentInput{agentComment(agentBlock(AgentSourceExternal, "ext", nil), "outside")}},
		AnnotationInput{AnnotationID: "a4", CommentData: []CommentInput{comment("alice", "plain")}})
	if err != nil {
		t.Fatal(err)
	}
	if res["a1"].FindingID != "f-reviewer" || res["a3"].FindingID != "f-ext" || res["a4"].FindingID != "" {
		t.Fatalf("findingIds: %+v", res)
	}
	if d.lookups != 1 {
		t.Errorf("%d lookups for one agent named twice, want 1", d.lookups)
	}
	a := f.one("ws1", "a1")
	if a.SourceType != "agent" || a.Agent["agentType"] != AgentTypeBuiltin || a.Agent["agentName"] != "Reviewer" ||
		a.Agent["executionId"] != "run-1" || a.Agent["reason"].(map[string]any)["custom"] != "kept" {
		t.Errorf("agent annotation: sourceType %q, agent %v", a.SourceType, a.Agent)
	}
	if c := a.Comments; c[0].SourceType != "agent" || c[0].Agent["agentId"] != "reviewer" || c[1].SourceType != "rest-api" || c[1].Agent != nil {
		t.Errorf("comments: %+v / %+v", c[0], c[1])
	}
	if a := f.one("ws1", "a3"); a.Agent["agentType"] != AgentTypeExternal || a.Agent["agentName"] != "Their bot" {
		t.Errorf("external agent: %v", a.Agent)
	}
	if a := f.one("ws1", "a4"); a.SourceType != "rest-api" || a.Agent != nil {
		t.Errorf("plain annotation: %q %v", a.SourceType, a.Agent)
	}

	// comments/add: the agent marks its comment only.
	if _, err := f.svc.AddComments(t.Context(), "ws1", CommentsAddRequest{OrganizationID: "org1", DocumentID: "doc1", AnnotationID: "a4",
		CommentData: []CommentInput{agentComment(agentBlock(AgentSourceBuiltin, "mine", nil), "reply")}}); err != nil {
		t.Fatal(err)
	}
	if a := f.one("ws1", "a4"); a.SourceType != "rest-api" || a.Agent != nil || a.Comments[1].Agent["agentType"] != AgentTypeCustom {
		t.Errorf("agent reply: annotation %q %v, comment %v", a.SourceType, a.Agent, a.Comments[1].Agent)
	}
}

// A bad block, an unknown agent of this deployment, or no way to look one
// up refuses the whole request before anything is written.
func TestAgentCommentsRefusedWriteNothing(t *testing.T) {
	f, d := newAgentFixture(t)
	add := func(b map[string]any) error {
		_, err := f.addItems("doc1",
			AnnotationInput{AnnotationID: "ok", CommentData: []CommentInput{comment("alice", "x")}},
			AnnotationInput{AnnotationID: "bad", CommentData: []CommentInput{agentComment(b, "y")}})
		return err
	}
	reason := func(k string, v any) map[string]any {
		r := map[string]any{"title": "t", "description": "d", "severity": "high"}
		r[k] = v
		return map[string]any{"reason": r}
	}
	for name, tc := range map[string]struct {
		block  map[string]any
		status api.Status
		want   string
	}{
		"velt source":        {agentBlock("velt", "reviewer", nil), api.InvalidArgument, "agentSource"},
		"no agentId":         {agentBlock(AgentSourceBuiltin, "", nil), api.InvalidArgument, "agent.agentId"},
		"external unnamed":   {agentBlock(AgentSourceExternal, "x", map[string]any{"agentName": ""}), api.InvalidArgument, "agentName"},
		"no reason":          {agentBlock(AgentSourceExternal, "x", map[string]any{"reason": nil}), api.InvalidArgument, "agent.reason"},
		"bad severity":       {agentBlock(AgentSourceExternal, "x", reason("severity", "meh")), api.InvalidArgument, "severity must be one of"},
		"no severity":        {agentBlock(AgentSourceExternal, "x", map[string]any{"reason": map[string]any{"title": "t", "description": "d"}}), api.InvalidArgument, "reason.severity"},
		"confidence 101":     {agentBlock(AgentSourceExternal, "x", reason("confidence", 101.0)), api.InvalidArgument, "confidence"},
		"confidence 1.5":     {agentBlock(AgentSourceExternal, "x", reason("confidence", 1.5)), api.InvalidArgument, "confidence"},
		"bad finding type":   {agentBlock(AgentSourceExternal, "x", reason("findingType", "blob")), api.InvalidArgument, "findingType"},
		"url not a string":   {agentBlock(AgentSourceExternal, "x", map[string]any{"url": 5.0}), api.InvalidArgument, "agent.url"},
		"unknown agent":      {agentBlock(AgentSourceBuiltin, "ghost", nil), api.NotFound, "ghost"},
		"unknown, no reason": {agentBlock(AgentSourceBuiltin, "ghost", map[string]any{"reason": "x"}), api.InvalidArgument, "reason"},
	} {
		if err := add(tc.block); !api.IsStatus(err, tc.status) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %s naming %q", name, err, tc.status, tc.want)
		}
	}
	var many []CommentInput
	for i := range 11 {
		many = append(many, agentComment(agentBlock(AgentSourceBuiltin, fmt.Sprint("agent-", i), nil), "x"))
	}
	lookups := d.lookups
	if _, err := f.addItems("doc1", AnnotationInput{AnnotationID: "many", CommentData: many}); !api.IsStatus(err, api.InvalidArgument) || !strings.Contains(err.Error(), "at most 10") {
		t.Errorf("eleven agents: %v, want INVALID_ARGUMENT saying at most 10", err)
	}
	if d.lookups != lookups {
		t.Errorf("the refused add looked up %d agents", d.lookups-lookups)
	}
	f.svc.WithAgents(nil)
	if err := add(agentBlock(AgentSourceBuiltin, "reviewer", nil)); !api.IsStatus(err, api.Unavailable) {
		t.Errorf("no directory: %v, want UNAVAILABLE", err)
	}
	if n := f.count("comment_annotations", nil); n != 0 {
		t.Fatalf("%d annotations written by refused requests", n)
	}
}
