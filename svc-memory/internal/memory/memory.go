// Package memory is the decision memory: judgments ingested from activity
// events, kept in MongoDB (the store of record) and in two vector indexes
// (review: decision and reasoning; content: the reviewed content), and the
// operations that read them: search, ask, suggest, judgments/query, and the
// document-migration hooks.
package memory

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/opencollab/backend/svc-memory/internal/judgment"
	"github.com/opencollab/backend/svc-memory/internal/lexical"
	"github.com/opencollab/backend/svc-memory/internal/vector"
)

// Stored is a judgment as the store of record holds it.
type Stored struct {
	judgment.Judgment
	WorkspaceID string
	// Rev changes on every write; indexing marks the revision it indexed,
	// so a write racing an indexer is indexed again.
	Rev     int64
	Indexed bool
}

// Filter selects judgments of one workspace: the metadata filter shared by
// the store and the vector indexes. Empty fields match anything;
// CreatedFrom/CreatedTo are inclusive epoch ms, 0 leaves a side open.
type Filter struct {
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

func (f Filter) vector(ws string) vector.Filter {
	return vector.Filter{
		WorkspaceID: ws, OrganizationID: f.OrganizationID, DocumentID: f.DocumentID,
		ExcludeDocumentIDs: f.ExcludeDocumentIDs, Decisions: f.Decisions, JudgeType: f.JudgeType,
		ContentType: f.ContentType, ReviewerID: f.ReviewerID, AnnotationID: f.AnnotationID,
		CreatedFrom: f.CreatedFrom, CreatedTo: f.CreatedTo,
	}
}

// Cursor is the position of the last record of a page in (createdAt,
// recordId) order.
type Cursor struct {
	CreatedAt int64  `json:"t"`
	RecordID  string `json:"i"`
}

// ListQuery is one page of a metadata listing.
type ListQuery struct {
	Filter
	Desc  bool
	After *Cursor
	Limit int
}

// Store is the store of record of judgments. Every method but the
// indexing ones is scoped to one workspace.
type Store interface {
	// SaveJudgment replaces the judgment with j's record id unless the
	// stored one came from a later event (sourceAt, epoch ms): saved is
	// false then. It returns the new revision, marked not indexed.
	SaveJudgment(ctx context.Context, ws string, j judgment.Judgment, sourceAt int64) (rev int64, saved bool, err error)
	// DeleteJudgment deletes the judgment unless it came from a later
	// event, reporting whether one was deleted.
	DeleteJudgment(ctx context.Context, ws, recordID string, sourceAt int64) (bool, error)
	// FindByIDs returns the judgments of ws with the given record ids.
	FindByIDs(ctx context.Context, ws string, ids []string) ([]Stored, error)
	// List returns up to q.Limit judgments matching q in (createdAt,
	// recordId) order, strictly after q.After.
	List(ctx context.Context, ws string, q ListQuery) ([]Stored, error)
	// MoveDocument re-keys the judgments of doc in org to newDoc, marking
	// them not indexed, and returns how many moved.
	MoveDocument(ctx context.Context, ws, org, doc, newDoc string) (int64, error)
	// HasDocumentData reports whether ws has a judgment of doc in org.
	HasDocumentData(ctx context.Context, ws, org, doc string) (bool, error)
	// ReviewedBy lists the record ids of ws's judgments whose reviewer is
	// one of userIDs (GDPR erasure).
	ReviewedBy(ctx context.Context, ws string, userIDs []string) ([]string, error)
	// MarkReviewersErased records that userIDs were erased from ws at
	// (epoch ms); ReviewerErasedAt reads it back (0: never).
	MarkReviewersErased(ctx context.Context, ws string, userIDs []string, at int64) error
	ReviewerErasedAt(ctx context.Context, ws, userID string) (int64, error)

	// Unindexed returns up to limit judgments of any workspace not marked
	// indexed.
	Unindexed(ctx context.Context, limit int) ([]Stored, error)
	// MarkIndexed marks each judgment indexed if it is still at the given
	// revision.
	MarkIndexed(ctx context.Context, done []Stored) error
	// MarkUnindexed marks every judgment written at or after since (epoch
	// ms; 0: all) not indexed, so the next sweep indexes it again.
	MarkUnindexed(ctx context.Context, since int64) error
	// Each calls fn with every judgment of every workspace, batch at a
	// time, in one pass (loading the lexical index, re-embedding).
	Each(ctx context.Context, batch int, fn func([]Stored) error) error
	// CountAll counts the judgments of every workspace (an estimate is
	// fine: it is a progress total).
	CountAll(ctx context.Context) (int64, error)
}

// Index is a vector index (internal/vector).
type Index interface {
	Upsert(ctx context.Context, points ...vector.Point) error
	Delete(ctx context.Context, ids ...string) error
	Search(ctx context.Context, query []float32, f vector.Filter, limit int) ([]vector.Hit, error)
	Count(ctx context.Context, f vector.Filter) (int, error)
}

// Embedder turns texts into vectors (internal/embed).
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// ChatModel completes a chat (an OpenAI-compatible endpoint).
type ChatModel interface {
	Complete(ctx context.Context, system, user string) (string, error)
}

// PageTokens keeps pagination cursors (pkg/pagetoken.Store).
type PageTokens interface {
	Save(ctx context.Context, workspaceID, queryKey, cursor string) (string, error)
	Load(ctx context.Context, workspaceID, queryKey, token string) (string, error)
}

// Deps are what the Service runs on. Chat is optional: without it ask
// answers extractively.
type Deps struct {
	Store    Store
	Review   Index // decision and reasoning vectors
	Content  Index // reviewed-content vectors
	Embedder Embedder
	Chat     ChatModel
	Pages    PageTokens
	Logger   *slog.Logger
	Now      func() time.Time
	// Model tags the vectors Embedder makes (for example
	// "builtin-hash-v2/256").
	Model string
	// Lexical is the keyword index; nil: vector retrieval only.
	Lexical *lexical.Index
	// Changes announces indexed and deleted judgments to the other
	// replicas (their lexical indexes follow with Refresh); nil: one
	// replica.
	Changes ChangeFeed
	// Retrieval is RetrievalHybrid (""), RetrievalVector or
	// RetrievalLexical.
	Retrieval string
	// MinSimilarity is the cosine at which a judgment counts as evidence
	// for ask and suggest on its own (0: DefaultMinSimilarity, measured on
	// the built-in embedder); MinCoverage the lexical coverage (0:
	// DefaultMinCoverage). See relevant.
	MinSimilarity float64
	MinCoverage   float64
}

// DefaultMinSimilarity is the cosine similarity at which a judgment is
// evidence for an ask question or a suggest query. On the built-in
// embedder unrelated review sentences score below 0.2 and paraphrases of
// the same point above 0.3 (the evaluation set, internal/evalset).
const DefaultMinSimilarity = 0.3

// Service runs the memory operations.
type Service struct {
	Deps
	sweeping chan struct{} // a one-slot lock: one index sweep at a time
	spaces   atomic.Pointer[spaceSet]
	running  atomic.Pointer[progress] // the last or current re-embedding
}

// NewService returns a Service over deps.
func NewService(deps Deps) *Service {
	if deps.Logger == nil {
		deps.Logger = slog.Default()
	}
	if deps.Now == nil {
		deps.Now = time.Now
	}
	if deps.MinSimilarity <= 0 {
		deps.MinSimilarity = DefaultMinSimilarity
	}
	if deps.MinCoverage <= 0 {
		deps.MinCoverage = DefaultMinCoverage
	}
	if deps.Retrieval == "" {
		deps.Retrieval = RetrievalHybrid
	}
	s := &Service{Deps: deps, sweeping: make(chan struct{}, 1)}
	set := &spaceSet{}
	if deps.Embedder != nil {
		set.serving = &VectorSpace{Model: deps.Model, Embedder: deps.Embedder, Review: deps.Review, Content: deps.Content}
	}
	s.spaces.Store(set)
	return s
}
