package memory

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// Search limits (rest-interface, Limits).
const (
	DefaultSearchLimit = 10
	MaxSearchLimit     = 50
)

// SearchRequest is /v2/memory/search.
type SearchRequest struct {
	Query          string
	EmbeddingType  string // "": review
	Scope          string // "": derived from the location
	OrganizationID string
	DocumentID     string
	Limit          *int
	Filters        Filters
	RecencyDays    *int
}

// SearchResponse is the result of search.
type SearchResponse struct {
	Results         []Result `json:"results"`
	TotalInScope    int64    `json:"totalInScope"`
	SearchLatencyMs float64  `json:"searchLatencyMs"`
}

// Validate returns every issue of r.
func (r SearchRequest) Validate() []Issue {
	var issues []Issue
	// The thread and recency paths skip vector search and ignore the query.
	needsQuery := r.Filters.AnnotationID == "" && r.RecencyDays == nil
	if needsQuery && strings.TrimSpace(r.Query) == "" {
		issues = append(issues, Issue{"query", "is required and must not be empty"})
	}
	switch r.EmbeddingType {
	case "", EmbeddingReview, EmbeddingContent:
	default:
		issues = append(issues, Issue{"embeddingType", fmt.Sprintf("has unknown value %q; allowed: review, content", r.EmbeddingType)})
	}
	switch r.Scope {
	case "", ScopeWorkspace:
	case ScopeDocument:
		if r.DocumentID == "" {
			issues = append(issues, Issue{"scope", "document requires documentId"})
		}
	case ScopeOrganization:
		if r.OrganizationID == "" {
			issues = append(issues, Issue{"scope", "organization requires organizationId"})
		}
	default:
		issues = append(issues, Issue{"scope", fmt.Sprintf("has unknown value %q; allowed: document, organization, apiKey", r.Scope)})
	}
	issues = append(issues, checkLocation(r.OrganizationID, r.DocumentID)...)
	if r.Limit != nil && (*r.Limit < 1 || *r.Limit > MaxSearchLimit) {
		issues = append(issues, Issue{"limit", fmt.Sprintf("must be between 1 and %d", MaxSearchLimit)})
	}
	issues = append(issues, r.Filters.validate(r.OrganizationID)...)
	return append(issues, checkRecency(r.RecencyDays)...)
}

// Search finds judgments: by relevance to the query (hybrid retrieval:
// review or content vectors fused with the lexical index, see retrieve),
// or, skipping the query, the thread of filters.annotationId
// (oldest first) or the most recent ones within recencyDays, both with
// similarity 1. Filters apply inside the index query, so limit results
// come back whenever that many match.
func (s *Service) Search(ctx context.Context, ws string, r SearchRequest) (SearchResponse, error) {
	started := time.Now()
	if err := Invalid(r.Validate()); err != nil {
		return SearchResponse{}, err
	}
	scope := r.Scope
	if scope == "" {
		scope = defaultScope(r.OrganizationID, r.DocumentID)
	}
	inScope := scopeFilter(scope, r.OrganizationID, r.DocumentID)
	f := r.Filters.apply(inScope)
	limit := DefaultSearchLimit
	if r.Limit != nil {
		limit = *r.Limit
	}
	if r.RecencyDays != nil {
		f.CreatedFrom, f.CreatedTo = s.Now().UnixMilli()-int64(*r.RecencyDays)*dayMillis, 0
	}
	var found []scored
	var err error
	switch {
	case r.Filters.AnnotationID != "":
		found, err = s.thread(ctx, ws, f, limit)
	case r.RecencyDays != nil:
		found, err = s.recent(ctx, ws, f, limit)
	default:
		found, err = s.retrieve(ctx, ws, r.EmbeddingType == EmbeddingContent, r.Query, f, limit)
	}
	if err != nil {
		return SearchResponse{}, err
	}
	total, err := s.countInScope(ctx, ws, inScope)
	if err != nil {
		return SearchResponse{}, err
	}
	results := make([]Result, len(found))
	for i, sc := range found {
		results[i] = Result{Record: sc.record(), Similarity: round(sc.score),
			Scope: recordScope(sc.Stored, r.OrganizationID, r.DocumentID)}
	}
	latency := float64(time.Since(started).Microseconds()) / 1000
	return SearchResponse{Results: results, TotalInScope: total, SearchLatencyMs: math.Round(latency*100) / 100}, nil
}

// thread reads a comment thread directly: its newest limit judgments,
// oldest first.
func (s *Service) thread(ctx context.Context, ws string, f Filter, limit int) ([]scored, error) {
	found, err := s.recent(ctx, ws, f, limit)
	slices.Reverse(found)
	return found, err
}

// recent returns the newest limit judgments matching f.
func (s *Service) recent(ctx context.Context, ws string, f Filter, limit int) ([]scored, error) {
	js, err := s.Store.List(ctx, ws, ListQuery{Filter: f, Desc: true, Limit: limit})
	if err != nil {
		return nil, err
	}
	out := make([]scored, len(js))
	for i, j := range js {
		out[i] = scored{Stored: j, score: 1}
	}
	return out, nil
}

// countInScope is totalInScope: the judgments of the scope, counted by the
// review index (its inverted lists, or Qdrant's payload indexes) rather
// than by the store, which on the embedded FerretDB would scan every
// judgment for each search. Every judgment is indexed as it is saved; one
// whose indexing failed is missing from the count until the sweep
// indexes it.
func (s *Service) countInScope(ctx context.Context, ws string, inScope Filter) (int64, error) {
	spaces := s.targets() // the serving space, else the one being built
	if len(spaces) == 0 {
		return 0, nil
	}
	n, err := spaces[0].Review.Count(ctx, inScope.vector(ws))
	if err != nil {
		return 0, fmt.Errorf("count judgments in scope: %w", err)
	}
	return int64(n), nil
}
