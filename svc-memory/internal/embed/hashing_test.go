package embed

import (
	"context"
	"math"
	"testing"
)

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func embedAll(t *testing.T, e Embedder, texts ...string) [][]float32 {
	t.Helper()
	vecs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatalf("Embed: %v", err)
	}
	if len(vecs) != len(texts) {
		t.Fatalf("got %d vectors for %d texts", len(vecs), len(texts))
	}
	return vecs
}

func TestHashingDimDefault(t *testing.T) {
	tests := []struct {
		in, want int
	}{{0, DefaultDim}, {-3, DefaultDim}, {64, 64}, {384, 384}}
	for _, tt := range tests {
		h := NewHashing(tt.in)
		if h.Dim() != tt.want {
			t.Errorf("NewHashing(%d).Dim() = %d, want %d", tt.in, h.Dim(), tt.want)
		}
		v := embedAll(t, h, "a text")[0]
		if len(v) != tt.want {
			t.Errorf("NewHashing(%d): vector length %d, want %d", tt.in, len(v), tt.want)
		}
	}
}

func TestHashingNormalisedOrZero(t *testing.T) {
	tests := []struct {
		text     string
		wantNorm float64
	}{
		{"", 0},
		{"   \t\n", 0},
		{"!!! ... ???", 0},
		{"a", 1},
		{"Approved: the wording is clear.", 1},
		{"Отклонено — нужна ссылка на источник", 1},
		{"合意しない 根拠が不足", 1},
	}
	h := NewHashing(256)
	for _, tt := range tests {
		v := embedAll(t, h, tt.text)[0]
		if norm := math.Sqrt(dot(v, v)); math.Abs(norm-tt.wantNorm) > 1e-5 {
			t.Errorf("%q: norm %v, want %v", tt.text, norm, tt.wantNorm)
		}
	}
}

// The vectors are part of the persisted state: the same text gives the
// same vector in every instance, and case or punctuation do not matter.
func TestHashingDeterministicAcrossInstances(t *testing.T) {
	a := embedAll(t, NewHashing(256), "Reject: the citation is missing")[0]
	b := embedAll(t, NewHashing(256), "Reject: the citation is missing")[0]
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("component %d differs: %v vs %v", i, a[i], b[i])
		}
	}
	if got := embedAll(t, NewHashing(256), "REJECT:  the Citation is MISSING!")[0]; dot(a, got) < 0.9999 {
		t.Errorf("case and punctuation should not matter, similarity %v", dot(a, got))
	}
	if NewHashing(256).Model() != HashingModel {
		t.Errorf("model tag %q", NewHashing(256).Model())
	}
}

// Near-synonyms of the built-in lexicon meet; a negation moves a text
// away from its positive form.
func TestHashingSynonymsAndNegation(t *testing.T) {
	h := NewHashing(256)
	v := embedAll(t, h, "health claim", "medical claim", "pricing table",
		"this cures headaches", "this treats headaches",
		"no citation for the figure", "the citation for the figure is missing", "with a citation for the figure")
	if syn, other := dot(v[0], v[1]), dot(v[0], v[2]); syn < 0.45 || other > 0.15 {
		t.Errorf("health~medical claim %.3f (want >= 0.45), ~pricing table %.3f (want <= 0.15)", syn, other)
	}
	if d := dot(v[3], v[4]); d < 0.6 {
		t.Errorf("cures~treats %.3f, want >= 0.6", d)
	}
	if same, opposite := dot(v[5], v[6]), dot(v[5], v[7]); same <= opposite+0.2 {
		t.Errorf("no citation ~ citation missing %.3f should clearly exceed ~ with a citation %.3f", same, opposite)
	}
}

func TestHashingSimilarityOrdering(t *testing.T) {
	h := NewHashing(256)
	vecs := embedAll(t, h,
		"the source citation is missing, rejected",
		"rejected because the citation of the source is missing",
		"approved the summary looks great",
		"citations missing",
		"citation missing",
	)
	near, far := dot(vecs[0], vecs[1]), dot(vecs[0], vecs[2])
	if near <= far {
		t.Errorf("paraphrase similarity %v should exceed unrelated %v", near, far)
	}
	if inflect := dot(vecs[3], vecs[4]); inflect < 0.5 {
		t.Errorf("inflections should be close through trigrams, similarity %v", inflect)
	}
}

func TestHashingBatchMatchesSingle(t *testing.T) {
	h := NewHashing(128)
	batch := embedAll(t, h, "one", "", "two words")
	for i, text := range []string{"one", "", "two words"} {
		single := embedAll(t, h, text)[0]
		for j := range single {
			if single[j] != batch[i][j] {
				t.Fatalf("text %q component %d: batch %v single %v", text, j, batch[i][j], single[j])
			}
		}
	}
}

func TestHashingCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewHashing(64).Embed(ctx, []string{"x"}); err == nil {
		t.Fatal("want error on cancelled context")
	}
}

func TestTokenize(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Hello, World!", []string{"hello", "world"}},
		{"v2.0 — état", []string{"v2", "0", "état"}},
		{"", nil},
	}
	for _, tt := range tests {
		got := tokenize(tt.in)
		if len(got) != len(tt.want) {
			t.Errorf("tokenize(%q) = %q, want %q", tt.in, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("tokenize(%q) = %q, want %q", tt.in, got, tt.want)
			}
		}
	}
}
