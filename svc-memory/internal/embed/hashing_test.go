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

// The vectors are part of the persisted state: pin a few components so an
// accidental change of tokenizer, hash or weights fails loudly.
func TestHashingDeterministicAcrossInstances(t *testing.T) {
	a := embedAll(t, NewHashing(256), "Reject: the citation is missing")[0]
	b := embedAll(t, NewHashing(256), "Reject: the citation is missing")[0]
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("component %d differs: %v vs %v", i, a[i], b[i])
		}
	}
	golden := []struct {
		i int
		v float32
	}{{18, -0.209916}, {60, -0.299880}, {69, 0.209916}, {202, 0.239904}, {207, -0.299880}}
	for _, g := range golden {
		if math.Abs(float64(a[g.i]-g.v)) > 1e-5 {
			t.Errorf("component %d = %v, want %v (tokenizer, hash or weights changed?)", g.i, a[g.i], g.v)
		}
	}
	if got := embedAll(t, NewHashing(256), "REJECT the Citation, is missing!")[0]; dot(a, got) < 0.9999 {
		t.Errorf("case and punctuation should not matter, similarity %v", dot(a, got))
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
