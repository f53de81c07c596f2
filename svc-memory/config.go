package svcmemory

import (
	"errors"
	"fmt"

	"github.com/opencollab/backend/pkg/service"
)

// Config is the service configuration, read from the environment.
type Config struct {
	service.Base

	// QdrantAddr (host:port of the gRPC API) selects Qdrant as the vector
	// index; empty: the embedded in-process index, rebuilt from MongoDB at
	// start. Embedded suits one replica only: each process indexes what it
	// consumes, so several replicas need Qdrant.
	QdrantAddr       string `env:"QDRANT_ADDR"`
	QdrantAPIKey     string `env:"QDRANT_API_KEY" mask:"true"`
	QdrantCollection string `env:"QDRANT_COLLECTION, default=judgments"` // + "_review" / "_content"
	// IndexSnapshotDir keeps snapshots of the embedded index, so a restart
	// loads instead of rebuilding. Optional.
	IndexSnapshotDir string `env:"INDEX_SNAPSHOT_DIR"`

	// EmbeddingsBaseURL selects an OpenAI-compatible /v1/embeddings
	// endpoint; empty: the deterministic hashing embedder. EmbeddingDim is
	// the vector length (the model's, with an endpoint).
	EmbeddingsBaseURL string `env:"EMBEDDINGS_BASE_URL"`
	EmbeddingsAPIKey  string `env:"EMBEDDINGS_API_KEY" mask:"true"`
	EmbeddingsModel   string `env:"EMBEDDINGS_MODEL"`
	EmbeddingDim      int    `env:"EMBEDDING_DIM, default=256"`

	// ChatBaseURL selects an OpenAI-compatible /v1/chat/completions
	// endpoint that writes ask's answers; empty: extractive answers.
	ChatBaseURL string `env:"CHAT_BASE_URL"`
	ChatAPIKey  string `env:"CHAT_API_KEY" mask:"true"`
	ChatModel   string `env:"CHAT_MODEL"`

	// Retrieval selects how search, ask and suggest find judgments:
	// hybrid (vector and lexical fused, the default), vector or lexical.
	Retrieval string `env:"MEMORY_RETRIEVAL, default=hybrid"`
	// MinSimilarity is the cosine at which a judgment counts as evidence
	// for ask and suggest; 0 takes the default measured on the built-in
	// embedder. Tune it for a model. MinCoverage is the same for the
	// lexical leg (the share of the judgment's or the query's terms
	// matched); 0 takes the default.
	MinSimilarity float64 `env:"MEMORY_MIN_SIMILARITY, default=0"`
	MinCoverage   float64 `env:"MEMORY_MIN_COVERAGE, default=0"`
}

// Validate checks what New needs.
func (c *Config) Validate() error {
	errs := []error{c.Base.Validate()}
	if c.EmbeddingDim <= 0 {
		errs = append(errs, errors.New("EMBEDDING_DIM must be positive"))
	}
	if c.EmbeddingsBaseURL != "" && c.EmbeddingsModel == "" {
		errs = append(errs, errors.New("EMBEDDINGS_MODEL is required with EMBEDDINGS_BASE_URL"))
	}
	if c.ChatBaseURL != "" && c.ChatModel == "" {
		errs = append(errs, errors.New("CHAT_MODEL is required with CHAT_BASE_URL"))
	}
	if c.MinSimilarity < 0 || c.MinSimilarity > 1 {
		errs = append(errs, errors.New("MEMORY_MIN_SIMILARITY must be between 0 and 1"))
	}
	if c.MinCoverage < 0 || c.MinCoverage > 1 {
		errs = append(errs, errors.New("MEMORY_MIN_COVERAGE must be between 0 and 1"))
	}
	switch c.Retrieval {
	case "", "hybrid", "vector", "lexical":
	default:
		errs = append(errs, fmt.Errorf("MEMORY_RETRIEVAL must be hybrid, vector or lexical, got %q", c.Retrieval))
	}
	if c.QdrantAddr != "" && c.QdrantCollection == "" {
		errs = append(errs, errors.New("QDRANT_COLLECTION is required with QDRANT_ADDR"))
	}
	return errors.Join(errs...)
}
