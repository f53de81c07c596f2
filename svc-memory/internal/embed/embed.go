// Package embed turns judgment texts into vectors for the memory index.
//
// Two embedders share one interface: Hashing, a deterministic
// feature-hashing embedder that needs no model and no network (the default),
// and OpenAI, a client for any OpenAI-compatible /v1/embeddings endpoint
// (better semantic quality, configured per deployment). Both return
// L2-normalised vectors, so cosine similarity is a plain dot product in the
// vector index; an empty text yields the zero vector.
package embed

import (
	"context"
	"errors"
	"math"
)

// Embedder maps texts to fixed-length vectors.
type Embedder interface {
	// Dim is the length of every vector Embed returns.
	Dim() int
	// Model names the model, so vectors of different models are never
	// mixed in one index.
	Model() string
	// Embed returns one vector per text, in input order. Vectors are
	// L2-normalised; an empty (or token-free) text gives the zero vector.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// Errors returned by embedders, wrapped with details; test with errors.Is.
var (
	// ErrInvalid: the request cannot succeed as given (bad configuration,
	// input rejected by the endpoint, wrong vector length).
	ErrInvalid = errors.New("embed: invalid request")
	// ErrUnavailable: the endpoint could not be reached, timed out,
	// throttled us or failed on its side; retrying later may work.
	ErrUnavailable = errors.New("embed: endpoint unavailable")
	// ErrUnauthorized: the endpoint refused the API key.
	ErrUnauthorized = errors.New("embed: endpoint refused credentials")
	// ErrBadResponse: the endpoint answered 2xx with something that is not
	// a usable embeddings response.
	ErrBadResponse = errors.New("embed: malformed endpoint response")
)

// normalize scales v to unit length in place; a zero vector stays zero.
func normalize(v []float32) {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(sum))
	for i := range v {
		v[i] *= inv
	}
}
