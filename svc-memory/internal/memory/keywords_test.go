package memory

import (
	"context"
	"testing"

	"github.com/opencollab/backend/svc-memory/internal/embed"
)

func TestKeywords(t *testing.T) {
	tests := []struct{ in, want string }{
		{"What is the weather in Paris?", "weather paris"},
		{"rejected: The source citation is NOT there", "rejected source citation not"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := keywords(tt.in); got != tt.want {
			t.Errorf("keywords(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	s := NewService(Deps{KeywordsOnly: true})
	if got := s.embedText("what is it"); got != "what is it" {
		t.Errorf("only function words: embedText = %q, want the text unchanged", got)
	}
}

// The relevance threshold is tuned on the hashing embedder: every related
// pair must reach it and every unrelated pair stay below.
func TestThresholdSeparatesRelatedFromUnrelated(t *testing.T) {
	stored := map[string]string{
		"citation": "rejected: The source citation is missing for the revenue claim",
		"summary":  "approved: Clear and concise summary, good to publish",
		"tone":     "rejected: Tone is too informal for a legal document",
		"pricing":  "approved: The pricing table matches the spreadsheet",
		"link":     "comment: Can we add a link to the onboarding guide?",
		"typo":     "resolve: Fixed the typo in the heading",
	}
	related := map[string]string{
		"citation missing": "citation", "is the source cited?": "citation",
		"missing reference for the revenue claim": "citation", "should we publish this summary": "summary",
		"informal tone": "tone", "is the pricing table right": "pricing", "typo in heading": "typo",
	}
	unrelated := []string{
		"what is the weather in paris", "how do I reset my password", "the quick brown fox jumps over the lazy dog",
		"what did reviewers say about the hiring plan", "is it okay to use emojis in the newsletter",
		"What do reviewers think about the budget for the marketing campaign?",
	}
	s := NewService(Deps{KeywordsOnly: true, Embedder: embed.NewHashing(256)})
	sim := func(a, b string) float64 {
		v, err := s.Embedder.Embed(context.Background(), []string{s.embedText(a), s.embedText(b)})
		if err != nil {
			t.Fatal(err)
		}
		var d float64
		for i := range v[0] {
			d += float64(v[0][i]) * float64(v[1][i])
		}
		return d
	}
	for q, key := range related {
		if got := sim(q, stored[key]); got < s.MinSimilarity {
			t.Errorf("related %q ~ %q: %.3f < threshold %.2f", q, stored[key], got, s.MinSimilarity)
		}
	}
	for _, q := range unrelated {
		for _, text := range stored {
			if got := sim(q, text); got >= s.MinSimilarity {
				t.Errorf("unrelated %q ~ %q: %.3f >= threshold %.2f", q, text, got, s.MinSimilarity)
			}
		}
	}
}
