package embed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// fakeEmbeddings serves /v1/embeddings: vector i of a request is
// [len(input), i+1, 0...] unless status forces an error answer.
type fakeEmbeddings struct {
	dim       int
	status    int
	body      string
	reverse   bool // answer data in reverse order (index field decides)
	requests  atomic.Int32
	lastAuth  atomic.Value
	lastModel atomic.Value
	maxInputs atomic.Int32
}

func (f *fakeEmbeddings) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.requests.Add(1)
	f.lastAuth.Store(r.Header.Get("Authorization"))
	if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
		http.Error(w, `{"error":{"message":"no route"}}`, http.StatusNotFound)
		return
	}
	if f.status != 0 {
		w.WriteHeader(f.status)
		fmt.Fprint(w, f.body)
		return
	}
	var req embeddingsRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	f.lastModel.Store(req.Model)
	if n := int32(len(req.Input)); n > f.maxInputs.Load() {
		f.maxInputs.Store(n)
	}
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	data := make([]item, len(req.Input))
	for i, in := range req.Input {
		if in == "" {
			http.Error(w, `{"error":{"message":"empty input"}}`, http.StatusBadRequest)
			return
		}
		v := make([]float32, f.dim)
		v[0], v[1] = float32(len(in)), float32(i+1)
		j := i
		if f.reverse {
			j = len(req.Input) - 1 - i
		}
		data[j] = item{Object: "embedding", Index: i, Embedding: v}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req.Model})
}

func newFake(t *testing.T, f *fakeEmbeddings, baseSuffix string) *OpenAI {
	t.Helper()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	o, err := NewOpenAI(srv.URL+baseSuffix, "sk-test", "text-embedding-3-small", f.dim, srv.Client())
	if err != nil {
		t.Fatalf("NewOpenAI: %v", err)
	}
	return o
}

func TestOpenAIEmbedsInOrderNormalised(t *testing.T) {
	for _, suffix := range []string{"", "/", "/v1", "/v1/"} {
		f := &fakeEmbeddings{dim: 8, reverse: true}
		o := newFake(t, f, suffix)
		vecs, err := o.Embed(context.Background(), []string{"abc", "", "a"})
		if err != nil {
			t.Fatalf("base suffix %q: Embed: %v", suffix, err)
		}
		// "abc" is input 0 of the request: [3, 1] normalised.
		want0 := []float32{float32(3 / math.Sqrt(10)), float32(1 / math.Sqrt(10))}
		if math.Abs(float64(vecs[0][0]-want0[0])) > 1e-6 || math.Abs(float64(vecs[0][1]-want0[1])) > 1e-6 {
			t.Errorf("suffix %q: vec 0 = %v, want prefix %v", suffix, vecs[0][:2], want0)
		}
		if dot(vecs[1], vecs[1]) != 0 || len(vecs[1]) != 8 {
			t.Errorf("suffix %q: empty text should give a zero vector of length 8, got %v", suffix, vecs[1])
		}
		// "a" is input 1 of the request (the empty text is not sent).
		if vecs[2][1] <= vecs[2][0] {
			t.Errorf("suffix %q: vec 2 = %v, want second component larger", suffix, vecs[2][:2])
		}
		if got := f.lastAuth.Load(); got != "Bearer sk-test" {
			t.Errorf("Authorization = %v", got)
		}
		if got := f.lastModel.Load(); got != "text-embedding-3-small" {
			t.Errorf("model = %v", got)
		}
	}
}

func TestOpenAIBatches(t *testing.T) {
	f := &fakeEmbeddings{dim: 4}
	o := newFake(t, f, "")
	texts := make([]string, maxBatch*2+3)
	for i := range texts {
		texts[i] = fmt.Sprintf("text %d", i)
	}
	vecs, err := o.Embed(context.Background(), texts)
	if err != nil {
		t.Fatalf("Embed: %v", err)
	}
	if len(vecs) != len(texts) || f.requests.Load() != 3 || f.maxInputs.Load() != maxBatch {
		t.Fatalf("got %d vectors in %d requests (max %d inputs)", len(vecs), f.requests.Load(), f.maxInputs.Load())
	}
}

func TestOpenAIOnlyEmptyTextsMakeNoRequest(t *testing.T) {
	f := &fakeEmbeddings{dim: 4}
	o := newFake(t, f, "")
	if _, err := o.Embed(context.Background(), []string{"", " "}); err != nil {
		t.Fatal(err)
	}
	if f.requests.Load() != 0 {
		t.Errorf("made %d requests", f.requests.Load())
	}
}

func TestOpenAIErrors(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		want   error
	}{
		{"unauthorized", 401, `{"error":{"message":"bad key"}}`, ErrUnauthorized},
		{"forbidden", 403, "", ErrUnauthorized},
		{"rate limited", 429, "", ErrUnavailable},
		{"server error", 503, "down", ErrUnavailable},
		{"bad request", 400, `{"error":{"message":"too long"}}`, ErrInvalid},
		{"not json", 200, "<html>", ErrBadResponse},
		{"missing data", 200, `{"data":[]}`, ErrBadResponse},
		{"wrong dim", 200, `{"data":[{"index":0,"embedding":[1,2,3]}]}`, ErrInvalid},
		{"bad index", 200, `{"data":[{"index":5,"embedding":[1,2,3,4]}]}`, ErrBadResponse},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeEmbeddings{dim: 4, status: tt.status, body: tt.body}
			o := newFake(t, f, "")
			_, err := o.Embed(context.Background(), []string{"x"})
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestOpenAIStatusErrorKeepsMessage(t *testing.T) {
	f := &fakeEmbeddings{dim: 4, status: 400, body: `{"error":{"message":"input too long"}}`}
	_, err := newFake(t, f, "").Embed(context.Background(), []string{"x"})
	var se *StatusError
	if !errors.As(err, &se) || se.Status != 400 || se.Message != "input too long" {
		t.Fatalf("err = %#v", err)
	}
}

func TestOpenAIUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	base := srv.URL
	srv.Close()
	o, err := NewOpenAI(base, "", "m", 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.Embed(context.Background(), []string{"x"}); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
}

func TestNewOpenAIValidates(t *testing.T) {
	tests := []struct {
		base, model string
		dim         int
	}{
		{"", "m", 4},
		{"ftp://x", "m", 4},
		{"http://", "m", 4},
		{"http://x", "", 4},
		{"http://x", "m", 0},
	}
	for _, tt := range tests {
		if _, err := NewOpenAI(tt.base, "", tt.model, tt.dim, nil); !errors.Is(err, ErrInvalid) {
			t.Errorf("NewOpenAI(%q, %q, %d) err = %v, want ErrInvalid", tt.base, tt.model, tt.dim, err)
		}
	}
}
