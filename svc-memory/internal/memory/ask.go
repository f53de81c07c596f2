package memory

import (
	"context"
	"fmt"
	"strings"
)

// askTopK is how many relevant judgments an answer is grounded in.
const askTopK = 8

// snippetRunes bounds a citation snippet.
const snippetRunes = 200

// AskRequest is /v2/memory/ask.
type AskRequest struct {
	Question       string
	OrganizationID string
	DocumentID     string
	Filters        Filters
	RecencyDays    *int
}

// Citation points at a judgment an answer relies on.
type Citation struct {
	RecordID string `json:"recordId"`
	Snippet  string `json:"snippet"`
}

// AskResponse is the result of ask.
type AskResponse struct {
	Answer          string     `json:"answer"`
	Citations       []Citation `json:"citations"`
	Confidence      float64    `json:"confidence"`
	RecordsSearched int64      `json:"recordsSearched"`
}

// Validate returns every issue of r.
func (r AskRequest) Validate() []Issue {
	var issues []Issue
	if strings.TrimSpace(r.Question) == "" {
		issues = append(issues, Issue{"question", "is required and must not be empty"})
	}
	issues = append(issues, checkLocation(r.OrganizationID, r.DocumentID)...)
	issues = append(issues, r.Filters.validate(r.OrganizationID)...)
	return append(issues, checkRecency(r.RecencyDays)...)
}

// Ask answers a question from the judgments most similar to it within the
// location's scope. Only judgments at least MinSimilarity close count;
// with none, the answer is "" with confidence 0, never an invented one.
// The answer is extractive unless a chat model is configured, which then
// writes it from the same records and cites them.
func (s *Service) Ask(ctx context.Context, ws string, r AskRequest) (AskResponse, error) {
	if err := Invalid(r.Validate()); err != nil {
		return AskResponse{}, err
	}
	inScope := scopeFilter(defaultScope(r.OrganizationID, r.DocumentID), r.OrganizationID, r.DocumentID)
	f := r.Filters.apply(inScope)
	if r.RecencyDays != nil {
		f.CreatedFrom, f.CreatedTo = s.Now().UnixMilli()-int64(*r.RecencyDays)*dayMillis, 0
	}
	total, err := s.countInScope(ctx, ws, inScope)
	if err != nil {
		return AskResponse{}, err
	}
	found, err := s.retrieve(ctx, ws, false, r.Question, f, askTopK)
	if err != nil {
		return AskResponse{}, err
	}
	relevant := s.relevant(found)
	resp := AskResponse{Citations: []Citation{}, RecordsSearched: total}
	if len(relevant) == 0 {
		return resp, nil
	}
	if s.Chat != nil {
		answer, cited, err := s.chatAnswer(ctx, r.Question, relevant)
		if err == nil {
			return withAnswer(resp, answer, cited), nil
		}
		s.Logger.WarnContext(ctx, "memory: chat answer failed, answering extractively", "error", err)
	}
	return withAnswer(resp, extractiveAnswer(relevant), relevant), nil
}

// withAnswer fills the answer, its citations and its confidence: the mean
// similarity of the cited records times how much they agree.
func withAnswer(resp AskResponse, answer string, cited []scored) AskResponse {
	if answer == "" || len(cited) == 0 {
		return resp
	}
	resp.Answer = answer
	var sum float64
	for _, sc := range cited {
		sum += sc.score
		resp.Citations = append(resp.Citations, Citation{RecordID: sc.RecordID, Snippet: snippet(sc.Stored)})
	}
	_, agreeing := leadingDecision(cited)
	resp.Confidence = round(sum / float64(len(cited)) * float64(agreeing) / float64(len(cited)))
	return resp
}

// extractiveAnswer summarises the records in one or two sentences: what
// most reviewers decided, with the most similar reasoning behind it, and
// what the others decided.
func extractiveAnswer(found []scored) string {
	lead, n := leadingDecision(found)
	who := "Reviewers"
	if allAgents(found) {
		who = "Agents"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %d of %d similar items", who, decisionVerbs[lead], n, len(found))
	if reason := topReasoning(found, lead); reason != "" {
		fmt.Fprintf(&b, ": %q", reason)
	}
	b.WriteString(".")
	if other, m := leadingDecision(without(found, lead)); m > 0 {
		fmt.Fprintf(&b, " Otherwise %d %s", m, decisionVerbs[other])
		if reason := topReasoning(found, other); reason != "" {
			fmt.Fprintf(&b, ": %q", reason)
		}
		b.WriteString(".")
	}
	return b.String()
}

// decisionVerbs phrase each decision in "Reviewers <verb> 3 of 4 ...".
var decisionVerbs = map[string]string{
	"comment": "commented on", "resolve": "resolved", "approved": "approved", "rejected": "rejected",
	"in_progress": "marked in progress", "agree": "agreed with", "disagree": "disagreed with",
	"endorse": "endorsed", "document_approved": "approved", "document_rejected": "rejected",
}

// leadingDecision is the most frequent decision (ties: the one of the most
// similar record) and how many records have it.
func leadingDecision(found []scored) (string, int) {
	counts := map[string]int{}
	lead := ""
	for _, sc := range found { // most similar first
		counts[sc.Decision]++
		if lead == "" || counts[sc.Decision] > counts[lead] {
			lead = sc.Decision
		}
	}
	return lead, counts[lead]
}

func without(found []scored, decision string) []scored {
	var out []scored
	for _, sc := range found {
		if sc.Decision != decision {
			out = append(out, sc)
		}
	}
	return out
}

// topReasoning is the reasoning of the most similar record with decision.
func topReasoning(found []scored, decision string) string {
	for _, sc := range found {
		if sc.Decision == decision && sc.Reasoning != "" {
			return truncate(sc.Reasoning, snippetRunes)
		}
	}
	return ""
}

func allAgents(found []scored) bool {
	for _, sc := range found {
		if sc.JudgeType != "agent" {
			return false
		}
	}
	return true
}

func snippet(j Stored) string {
	if j.Reasoning == "" {
		return j.Decision
	}
	return truncate(j.Reasoning, snippetRunes)
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}
