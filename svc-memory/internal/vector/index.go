// Package vector stores judgment embeddings and answers filtered
// nearest-neighbour queries for svc-memory.
//
// One interface, Index, has two implementations:
//
//   - Embedded (NewEmbedded): in-process, the default. Payload inverted
//     lists give each filter its candidate set; a small set is scanned in
//     full, a large one is searched through an HNSW graph (written here, no
//     library) that exists once the index holds Options.ExactThreshold
//     points. Vectors are kept in half precision (half.go); the graph walks
//     int8 copies of them (AVX-512 VNNI or AVX2 kernels) and re-scores its
//     results on the halves (AVX-512/F16C kernels). Binary
//     snapshots let a restart skip the rebuild.
//   - Qdrant (NewQdrant): a Qdrant collection over gRPC, used when the
//     service is configured with QDRANT_ADDR.
//
// Similarity is cosine: both implementations normalise stored and query
// vectors, so scores are dot products of unit vectors in [-1, 1]. Filters
// are applied inside the search, so Search returns `limit` hits whenever at
// least that many points match the filter. Every call is scoped to one
// workspace: Filter.WorkspaceID is required and no result ever crosses it.
package vector

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
)

// Point is one stored vector: a judgment, keyed by the caller's string ID.
type Point struct {
	ID      string
	Vector  []float32
	Payload Payload
}

// Payload is the filterable data kept with each vector. WorkspaceID is
// required; the other fields may be empty. CreatedAt is epoch milliseconds.
type Payload struct {
	WorkspaceID    string
	OrganizationID string
	DocumentID     string
	Decision       string
	JudgeType      string
	ContentType    string
	ReviewerID     string
	AnnotationID   string
	CreatedAt      int64
}

// Filter restricts Search and Count. WorkspaceID is always required; every
// other non-zero field narrows the result (fields combine with AND,
// Decisions is a set: any of them). CreatedFrom/CreatedTo bound CreatedAt
// inclusively in epoch ms; 0 leaves that side open.
type Filter struct {
	WorkspaceID        string
	OrganizationID     string
	DocumentID         string
	ExcludeDocumentIDs []string
	Decisions          []string
	JudgeType          string
	ContentType        string
	ReviewerID         string
	AnnotationID       string
	CreatedFrom        int64
	CreatedTo          int64
}

// Hit is one search result, best first.
type Hit struct {
	ID      string
	Score   float32
	Payload Payload
}

// Index is what svc-memory uses to store and query judgment vectors.
// Implementations are safe for concurrent use.
type Index interface {
	// Upsert inserts points or replaces those with the same ID (vector and
	// payload). It is idempotent: re-upserting an identical point is cheap
	// and changes nothing.
	Upsert(ctx context.Context, points ...Point) error
	// Delete removes points by ID; unknown IDs are ignored.
	Delete(ctx context.Context, ids ...string) error
	// Search returns up to limit points matching f, by descending cosine
	// similarity to query. The filter is applied inside the search: when at
	// least limit points match, limit hits come back.
	Search(ctx context.Context, query []float32, f Filter, limit int) ([]Hit, error)
	// Count returns how many points match f.
	Count(ctx context.Context, f Filter) (int, error)
	// Close releases resources. The index must not be used afterwards.
	Close() error
}

// Errors, wrapped with details; test with errors.Is.
var (
	// ErrInvalid: bad input (wrong dimension, missing workspace or ID,
	// non-positive limit, non-finite vector component).
	ErrInvalid = errors.New("vector: invalid argument")
	// ErrUnavailable: the backing store (Qdrant) cannot be reached.
	ErrUnavailable = errors.New("vector: index unavailable")
	// ErrClosed: the index has been closed.
	ErrClosed = errors.New("vector: index closed")
	// ErrBadSnapshot: a snapshot file exists but cannot be used (corrupt,
	// truncated, other dimension or format). Remove it and rebuild.
	ErrBadSnapshot = errors.New("vector: unusable snapshot")
)

// validatePoints checks IDs, workspaces and vector dimensions before any
// change is made, so a bad batch changes nothing.
func validatePoints(points []Point, dim int) error {
	for i, p := range points {
		if p.ID == "" {
			return fmt.Errorf("%w: point %d has no ID", ErrInvalid, i)
		}
		if p.Payload.WorkspaceID == "" {
			return fmt.Errorf("%w: point %q has no workspace", ErrInvalid, p.ID)
		}
		if err := validateVector(p.Vector, dim); err != nil {
			return fmt.Errorf("point %q: %w", p.ID, err)
		}
	}
	return nil
}

func validateVector(v []float32, dim int) error {
	if len(v) != dim {
		return fmt.Errorf("%w: vector has %d dimensions, index has %d", ErrInvalid, len(v), dim)
	}
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return fmt.Errorf("%w: vector has a non-finite component", ErrInvalid)
		}
	}
	return nil
}

func validateSearch(query []float32, f Filter, limit, dim int) error {
	if err := validateFilter(f); err != nil {
		return err
	}
	if limit <= 0 {
		return fmt.Errorf("%w: limit must be positive, got %d", ErrInvalid, limit)
	}
	return validateVector(query, dim)
}

func validateFilter(f Filter) error {
	if f.WorkspaceID == "" {
		return fmt.Errorf("%w: filter needs a workspace", ErrInvalid)
	}
	if f.CreatedFrom != 0 && f.CreatedTo != 0 && f.CreatedFrom > f.CreatedTo {
		return fmt.Errorf("%w: createdFrom is after createdTo", ErrInvalid)
	}
	return nil
}

// normalized returns a unit-length copy of v (the zero vector stays zero),
// so that cosine similarity is a dot product.
func normalized(v []float32) []float32 {
	out := make([]float32, len(v))
	copy(out, v)
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 {
		return out
	}
	inv := float32(1 / math.Sqrt(sum))
	for i := range out {
		out[i] *= inv
	}
	return out
}

// Match reports whether a point with payload p passes f (the semantics
// Search applies; for indexes that keep payloads outside this package,
// such as the lexical index).
func (f Filter) Match(p Payload) bool {
	switch {
	case p.WorkspaceID != f.WorkspaceID,
		f.OrganizationID != "" && p.OrganizationID != f.OrganizationID,
		f.DocumentID != "" && p.DocumentID != f.DocumentID,
		f.JudgeType != "" && p.JudgeType != f.JudgeType,
		f.ContentType != "" && p.ContentType != f.ContentType,
		f.ReviewerID != "" && p.ReviewerID != f.ReviewerID,
		f.AnnotationID != "" && p.AnnotationID != f.AnnotationID,
		len(f.Decisions) > 0 && !slices.Contains(f.Decisions, p.Decision),
		slices.Contains(f.ExcludeDocumentIDs, p.DocumentID),
		f.CreatedFrom != 0 && p.CreatedAt < f.CreatedFrom,
		f.CreatedTo != 0 && p.CreatedAt > f.CreatedTo:
		return false
	}
	return true
}
