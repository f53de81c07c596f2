package judgment

import (
	"encoding/json"
	"testing"
)

func activity(actionType string, mutate func(a *Activity)) Activity {
	a := Activity{
		ID: "act1", FeatureType: "comment", ActionType: actionType,
		ActionUser:     json.RawMessage(`{"userId":"u1","name":"Ann","email":"ann@x.io"}`),
		TargetEntityID: "ann1",
		Timestamp:      1700000000000,
	}
	a.Metadata.OrganizationID, a.Metadata.DocumentID = "o1", "d1"
	if mutate != nil {
		mutate(&a)
	}
	return a
}

func raw(s string) json.RawMessage { return json.RawMessage(s) }

func TestDecisionMapping(t *testing.T) {
	statusTo := func(to string) func(*Activity) {
		return func(a *Activity) { a.Changes = raw(`{"status":{"from":{"id":"OPEN"},"to":` + to + `}}`) }
	}
	tests := []struct {
		name       string
		a          Activity
		want       string // "" = not a judgment
		confidence float64
	}{
		{"approve", activity("comment_annotation.approve", nil), Approved, 1},
		{"reject", activity("comment_annotation.reject", nil), Rejected, 1},
		{"comment", activity("comment.add", nil), Comment, 0.8},
		{"resolved status object", activity("comment_annotation.status_change", statusTo(`{"id":"RESOLVED","name":"Resolved","type":"terminal"}`)), Resolve, 0.8},
		{"custom terminal status", activity("comment_annotation.status_change", statusTo(`{"id":"DONE","type":"terminal"}`)), Resolve, 0.8},
		{"resolved status id", activity("comment_annotation.status_change", statusTo(`"RESOLVED"`)), Resolve, 0.8},
		{"in progress status", activity("comment_annotation.status_change", statusTo(`{"id":"IN_PROGRESS","type":"ongoing"}`)), InProgress, 0.8},
		{"reopened", activity("comment_annotation.status_change", statusTo(`{"id":"OPEN","type":"default"}`)), "", 0},
		{"status change without changes", activity("comment_annotation.status_change", nil), "", 0},
		{"agree", activity("comment_annotation.agree", nil), Agree, 0.8},
		{"disagree", activity("comment.disagree", nil), Disagree, 0.8},
		{"endorse", activity("comment_annotation.endorse", nil), Endorse, 0.8},
		{"in_progress verb", activity("comment_annotation.in_progress", nil), InProgress, 0.8},
		{"document approve", activity("document.approve", nil), DocumentApproved, 1},
		{"document reject", activity("document.reject", nil), DocumentRejected, 1},
		{"document_approved verb", activity("review.document_approved", nil), DocumentApproved, 1},
		{"suggestion accept", activity("comment_annotation.suggestion_accept", nil), Approved, 1},
		{"case insensitive", activity("Comment_Annotation.APPROVE", nil), Approved, 1},
		{"comment update", activity("comment.update", nil), "", 0},
		{"annotation add", activity("comment_annotation.add", nil), "", 0},
		{"reaction", activity("comment.reaction_add", nil), "", 0},
		{"crdt", activity("crdt.update_data", nil), "", 0},
		{"no id", activity("comment_annotation.approve", func(a *Activity) { a.ID = "" }), "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j, ok := FromActivity(tt.a, "", "")
			if tt.want == "" {
				if ok {
					t.Fatalf("derived %+v, want skip", j)
				}
				return
			}
			if !ok || j.Decision != tt.want {
				t.Fatalf("decision %q (ok %v), want %q", j.Decision, ok, tt.want)
			}
			if j.Confidence != tt.confidence {
				t.Errorf("confidence %v, want %v", j.Confidence, tt.confidence)
			}
			if j.RecordID != "act1" || j.AnnotationID != "ann1" || j.OrganizationID != "o1" || j.DocumentID != "d1" ||
				j.CreatedAt != 1700000000000 || j.Reviewer != (User{"u1", "Ann", "ann@x.io"}) ||
				j.JudgeType != JudgeHuman || j.Agent != nil || j.ContentType != DefaultContentType {
				t.Errorf("fields %+v", j)
			}
		})
	}
}

func TestReasoningContentAndAgent(t *testing.T) {
	tests := []struct {
		name                          string
		mutate                        func(*Activity)
		reasoning, content, judgeType string
		contentType                   string
		confidence                    float64
		agent                         string
	}{
		{
			name: "comment text wins",
			mutate: func(a *Activity) {
				a.EntityData = raw(`{"commentText":"  Looks   good ","comments":[{"commentText":"first"}]}`)
			},
			reasoning: "Looks good", content: "first", judgeType: JudgeHuman, contentType: "comment", confidence: 1,
		},
		{
			name: "last non-empty comment of the thread",
			mutate: func(a *Activity) {
				a.EntityData = raw(`{"comments":[{"commentText":"Is the source cited?"},{"commentText":"Citation missing"},{"commentText":""}]}`)
			},
			reasoning: "Citation missing", content: "Is the source cited?", judgeType: JudgeHuman, contentType: "comment", confidence: 1,
		},
		{
			name: "template rendered",
			mutate: func(a *Activity) {
				a.DisplayMessageTemplate = "{{actionUser}} approved {{ item.title }} ({{missing}})"
				a.DisplayMessageTemplateData = raw(`{"actionUser":{"name":"Ann"},"item":{"title":"the pricing page"}}`)
				a.EntityTargetData = raw(`"Pricing: $10 per seat"`)
			},
			reasoning: "Ann approved the pricing page ()", content: "Pricing: $10 per seat", judgeType: JudgeHuman, contentType: "comment", confidence: 1,
		},
		{
			name: "target object text and content type",
			mutate: func(a *Activity) {
				a.EntityData = raw(`{"commentText":"ok","contentType":"blog"}`)
				a.EntityTargetData = raw(`{"text":"Draft intro paragraph","contentType":"page"}`)
			},
			reasoning: "ok", content: "Draft intro paragraph", judgeType: JudgeHuman, contentType: "blog", confidence: 1,
		},
		{
			name: "target content type",
			mutate: func(a *Activity) {
				a.EntityTargetData = raw(`{"contentType":"legal"}`)
			},
			reasoning: "", content: "", judgeType: JudgeHuman, contentType: "legal", confidence: 1,
		},
		{
			name: "agent block with confidence",
			mutate: func(a *Activity) {
				a.EntityData = raw(`{"agent":{"agentId":"spell-check","reason":{"title":"Typo","description":"recieve","confidence":73}}}`)
			},
			reasoning: "Typo: recieve", judgeType: JudgeAgent, contentType: "comment", confidence: 0.73,
			agent: `{"agentId":"spell-check","reason":{"confidence":73,"description":"recieve","title":"Typo"}}`,
		},
		{
			name: "agent actor",
			mutate: func(a *Activity) {
				a.ActionUser = raw(`{"userId":"bot-1","name":"Reviewer Bot","type":"agent"}`)
				a.EntityData = raw(`{"commentText":"Fails the style guide"}`)
			},
			reasoning: "Fails the style guide", judgeType: JudgeAgent, contentType: "comment", confidence: 1,
			agent: `{"agentId":"bot-1","agentName":"Reviewer Bot"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j, ok := FromActivity(activity("comment_annotation.approve", tt.mutate), "", "")
			if !ok {
				t.Fatal("not derived")
			}
			if j.Reasoning != tt.reasoning || j.Content != tt.content || j.JudgeType != tt.judgeType ||
				j.ContentType != tt.contentType || j.Confidence != tt.confidence || string(j.Agent) != tt.agent {
				t.Fatalf("got reasoning %q content %q judge %q type %q confidence %v agent %s",
					j.Reasoning, j.Content, j.JudgeType, j.ContentType, j.Confidence, j.Agent)
			}
		})
	}
}

func TestLocationFallbackAndTexts(t *testing.T) {
	a := activity("comment.add", func(a *Activity) { a.Metadata.OrganizationID, a.Metadata.DocumentID = "", "" })
	j, _ := FromActivity(a, "org-ev", "doc-ev")
	if j.OrganizationID != "org-ev" || j.DocumentID != "doc-ev" {
		t.Fatalf("location %s/%s", j.OrganizationID, j.DocumentID)
	}
	j.Reasoning = "why"
	if j.ReviewText() != "comment: why" || j.ContentText() != "why" {
		t.Fatalf("texts %q %q", j.ReviewText(), j.ContentText())
	}
}
