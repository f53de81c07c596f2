package svcmemory_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/testenv"
	svcmemory "github.com/opencollab/backend/svc-memory"
	"github.com/opencollab/backend/svc-memory/internal/embed"
	"github.com/opencollab/backend/svc-memory/internal/vector/qdranttest"
)

// embeddingsServer is a local OpenAI-compatible /v1/embeddings endpoint
// (model "test-embed", 64 dimensions, vectors from a hashing embedder of
// that size). While gate is closed, requests wait: the test holds a
// re-embedding in flight.
type embeddingsServer struct {
	*httptest.Server
	gate   chan struct{}
	mu     sync.Mutex
	inputs []string
}

func newEmbeddingsServer(t *testing.T) *embeddingsServer {
	s := &embeddingsServer{gate: make(chan struct{})}
	inner := embed.NewHashing(64)
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if r.URL.Path != "/v1/embeddings" || json.NewDecoder(r.Body).Decode(&req) != nil || req.Model != "test-embed" {
			http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
			return
		}
		select {
		case <-s.gate:
		case <-r.Context().Done():
			return
		}
		s.mu.Lock()
		s.inputs = append(s.inputs, req.Input...)
		s.mu.Unlock()
		vecs, _ := inner.Embed(r.Context(), req.Input)
		type item struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		resp := struct {
			Data []item `json:"data"`
		}{}
		for i, v := range vecs {
			resp.Data = append(resp.Data, item{i, v})
		}
		_ = json.NewEncoder(w).Encode(resp)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *embeddingsServer) saw(text string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Contains(s.inputs, text)
}

type indexStatus struct {
	Model     string `json:"model"`
	Operation *struct {
		Model, PreviousModel, State, ServingModel string
		Done, Total                               int64
	} `json:"operation"`
}

func (e *env) status() indexStatus {
	e.T.Helper()
	var st indexStatus
	e.ok(ws1, "/v2/memory/index/status", map[string]any{}, &st)
	return st
}

// Changing the embedding model re-embeds every judgment in the background:
// the service is ready at once, search keeps answering with the previous
// model's vectors, the status operation shows the progress, and the new
// model serves when it is done.
func TestModelChangeReembedsInBackground(t *testing.T) {
	t.Parallel()
	for _, backend := range []string{"embedded", "qdrant"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			cfg := svcmemory.Config{IndexSnapshotDir: t.TempDir()}
			if backend == "qdrant" {
				cfg = svcmemory.Config{QdrantAddr: qdranttest.Start(t).Addr(), QdrantCollection: "judgments"}
			}
			e := newEnv(t, cfg)
			seed(e)
			if st := e.status(); st.Model != "builtin-hash-v2/256" {
				t.Fatalf("status before the change: %+v", st)
			}
			e.svc.Close()

			srv := newEmbeddingsServer(t)
			cfg.EmbeddingsBaseURL, cfg.EmbeddingsModel, cfg.EmbeddingDim = srv.URL, "test-embed", 64
			e.Redis = testenv.Redis(t)
			e.start(cfg)
			// The endpoint is held: the re-embedding cannot progress, search
			// still answers from the previous vectors and the lexical index.
			e.waitFor("re-embedding started", func() bool { return e.status().Operation != nil })
			st := e.status()
			if st.Operation == nil || st.Operation.State != "running" || st.Operation.Model != "test-embed/64" ||
				st.Operation.PreviousModel != "builtin-hash-v2/256" || st.Model != "builtin-hash-v2/256" || st.Operation.Done != 0 {
				t.Fatalf("status during the re-embedding: %+v %+v", st, st.Operation)
			}
			if got := e.search(ws1, map[string]any{"query": "citation missing", "organizationId": "o1", "documentId": "d1"}); sortedIDs(got.Results) != "s1,s2,s3" {
				t.Fatalf("search during the re-embedding: %s", ids(got.Results))
			}
			close(srv.gate)
			e.waitFor("re-embedding done", func() bool {
				st := e.status()
				return st.Operation != nil && st.Operation.State == "succeeded" && st.Model == "test-embed/64"
			})
			if st := e.status(); st.Operation.Done != 8 || st.Operation.Total != 8 { // seed: 7 in ws1, 1 in ws2
				t.Fatalf("progress %+v", st.Operation)
			}
			if !srv.saw("rejected: Citation missing, please add the source") {
				t.Fatal("the endpoint never embedded the judgments")
			}
			if got := e.search(ws1, map[string]any{"query": "citation missing", "limit": 50}); len(got.Results) != 7 {
				t.Fatalf("search on the new model: %s", ids(got.Results))
			}
			if !srv.saw("citation missing") {
				t.Fatal("the query was not embedded by the new model")
			}
			// A further restart: the model is recorded, nothing to re-embed.
			e.svc.Close()
			e.start(cfg)
			time.Sleep(50 * time.Millisecond)
			if st := e.status(); st.Operation != nil || st.Model != "test-embed/64" {
				t.Fatalf("after a restart on the same model: %+v", st)
			}
		})
	}
}
