package svcmemory_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	svcmemory "github.com/opencollab/backend/svc-memory"
)

type askResult struct {
	Answer    string `json:"answer"`
	Citations []struct {
		RecordID string `json:"recordId"`
		Snippet  string `json:"snippet"`
	} `json:"citations"`
	Confidence      float64 `json:"confidence"`
	RecordsSearched int64   `json:"recordsSearched"`
}

func (e *env) ask(principal string, q map[string]any) askResult {
	e.T.Helper()
	var out askResult
	r := e.ok(principal, "/v2/memory/ask", q, &out)
	if _, has := r.Result["status"]; has || r.Result["citations"] == nil {
		e.T.Fatalf("ask result shape: %v", r.Result)
	}
	return out
}

func cited(a askResult) []string {
	var out []string
	for _, c := range a.Citations {
		out = append(out, c.RecordID)
	}
	sort.Strings(out)
	return out
}

func TestAskWithoutRelevantRecordsAnswersNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcmemory.Config{})
	seed(e)
	for _, q := range []string{"What is the weather in Paris?", "How do I reset my password?", "budget for the marketing campaign"} {
		got := e.ask(ws1, map[string]any{"question": q})
		if got.Answer != "" || got.Confidence != 0 || len(got.Citations) != 0 || got.RecordsSearched != 7 {
			t.Fatalf("%q: %+v", q, got)
		}
	}
	// Nothing in scope at all.
	if got := e.ask(ws1, map[string]any{"question": "Is the citation missing?", "organizationId": "nobody"}); got.Answer != "" || got.RecordsSearched != 0 {
		t.Fatalf("empty scope: %+v", got)
	}
}

func TestAskAnswersFromRecordsWithCitations(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcmemory.Config{})
	seed(e)
	got := e.ask(ws1, map[string]any{"question": "Is the citation missing?"})
	if got.Answer == "" || !strings.Contains(got.Answer, "rejected") || got.Confidence <= 0 || got.Confidence > 1 || got.RecordsSearched != 7 {
		t.Fatalf("answer %+v", got)
	}
	real := map[string]bool{"s1": true, "s2": true, "s3": true, "s4": true, "s5": true, "s6": true, "s7": true}
	for _, c := range got.Citations {
		if !real[c.RecordID] || c.Snippet == "" {
			t.Fatalf("citation %+v is not a record of the workspace", c)
		}
	}
	if !slices.Contains(cited(got), "s2") || slices.Contains(cited(got), "s3") {
		t.Fatalf("citations %v: want the citation records, not the unrelated summary", cited(got))
	}
	// The document scope narrows retrieval and recordsSearched.
	doc := e.ask(ws1, map[string]any{"question": "Is the citation missing?", "organizationId": "o1", "documentId": "d2"})
	for _, id := range cited(doc) {
		if id != "s4" && id != "s5" && id != "s6" {
			t.Fatalf("document-scoped citation %s", id)
		}
	}
	if doc.RecordsSearched != 3 || doc.Answer == "" {
		t.Fatalf("document scope: %+v", doc)
	}
	// Filters narrow too.
	agents := e.ask(ws1, map[string]any{"question": "Is the citation missing?", "filters": map[string]any{"judgeType": "agent"}})
	if ids := cited(agents); len(ids) != 1 || ids[0] != "s6" || !strings.HasPrefix(agents.Answer, "Agents rejected 1 of 1") {
		t.Fatalf("agent filter: %+v", agents)
	}
	// Only the judgments of the last 3 days (s1, s5) can be cited.
	recent := e.ask(ws1, map[string]any{"question": "Is the citation missing?", "recencyDays": 3})
	if c := cited(recent); !slices.Contains(c, "s1") || slices.ContainsFunc(c, func(id string) bool { return id != "s1" && id != "s5" }) {
		t.Fatalf("recency: %+v", recent)
	}
}

func TestAskValidation(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcmemory.Config{})
	tests := []struct {
		name string
		body map[string]any
		want []string
	}{
		{"no question", map[string]any{}, []string{"question"}},
		{"blank question", map[string]any{"question": " "}, []string{"question"}},
		{"all at once", map[string]any{"question": 3, "documentId": "d", "recencyDays": 400, "filters": map[string]any{"decision": "x"}},
			[]string{"documentId", "filters.decision", "question", "recencyDays"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.fails(ws1, "/v2/memory/ask", tt.body, http.StatusBadRequest, "INVALID_ARGUMENT")
			got := r.issueFields()
			sort.Strings(got)
			if !slices.Equal(got, tt.want) {
				t.Fatalf("issues %v, want %v", got, tt.want)
			}
		})
	}
}

// fakeChat is an OpenAI-compatible chat endpoint that answers with reply
// (or fails with status) and records the prompts it got.
type fakeChat struct {
	mu      sync.Mutex
	reply   string
	status  int
	prompts []string
}

func (f *fakeChat) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	_ = json.Unmarshal(body, &req)
	f.mu.Lock()
	defer f.mu.Unlock()
	if r.URL.Path != "/v1/chat/completions" || req.Model != "test-model" || len(req.Messages) != 2 ||
		r.Header.Get("Authorization") != "Bearer chat-key" {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	f.prompts = append(f.prompts, req.Messages[1].Content)
	if f.status != 0 {
		http.Error(w, "down", f.status)
		return
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": f.reply}}}})
}

func TestAskWithChatModel(t *testing.T) {
	t.Parallel()
	chat := &fakeChat{}
	srv := httptest.NewServer(chat)
	defer srv.Close()
	e := newEnv(t, svcmemory.Config{ChatBaseURL: srv.URL, ChatAPIKey: "chat-key", ChatModel: "test-model"})
	seed(e)
	question := map[string]any{"question": "Is the citation missing?", "organizationId": "o1", "documentId": "d1"}

	chat.reply = "Yes: reviewers rejected it because the citation is missing [s2]."
	got := e.ask(ws1, question)
	if got.Answer != chat.reply || strings.Join(cited(got), ",") != "s2" || got.Confidence <= 0 {
		t.Fatalf("chat answer: %+v", got)
	}
	prompt := chat.prompts[len(chat.prompts)-1]
	if !strings.Contains(prompt, "Is the citation missing?") || !strings.Contains(prompt, "[s1]") || !strings.Contains(prompt, "[s2]") ||
		strings.Contains(prompt, "[s4]") {
		t.Fatalf("prompt does not carry the retrieved records of the scope:\n%s", prompt)
	}

	chat.reply = "NO_ANSWER"
	if got := e.ask(ws1, question); got.Answer != "" || got.Confidence != 0 || len(got.Citations) != 0 {
		t.Fatalf("declined: %+v", got)
	}

	// Nothing relevant: the model is not even asked.
	calls := len(chat.prompts)
	if got := e.ask(ws1, map[string]any{"question": "What is the weather in Paris?"}); got.Answer != "" || len(chat.prompts) != calls {
		t.Fatalf("irrelevant question: %+v, %d model calls", got, len(chat.prompts)-calls)
	}

	// A failing endpoint falls back to the extractive answer.
	chat.status = http.StatusInternalServerError
	if got := e.ask(ws1, question); !strings.HasPrefix(got.Answer, "Reviewers rejected 2 of 2 similar items") || len(got.Citations) != 2 {
		t.Fatalf("fallback: %+v", got)
	}
}
