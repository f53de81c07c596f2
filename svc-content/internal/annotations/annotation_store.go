package annotations

import (
	"context"
	"errors"
)

// Stores are what the service keeps its data in; internal/store implements
// them on MongoDB.
type Stores struct {
	Annotations AnnotationStore
	Numbers     NumberStore
	Feeds       FeedStore
	// PageTokens keeps the cursors of get; *pagetoken.Store (Redis) in a
	// running service.
	PageTokens PageTokenStore
}

// AnnotationStore is what the operations need of the stored annotations.
type AnnotationStore interface {
	// EnsureIndexes creates the indexes the queries run on; safe at every start.
	EnsureIndexes(ctx context.Context) error
	// Exists reports whether annotation id exists in workspace ws.
	Exists(ctx context.Context, ws, id string) (bool, error)
	// Load reads annotation id of workspace ws; ErrNoAnnotation when absent.
	Load(ctx context.Context, ws, id string) (*Annotation, error)
	// InsertNew inserts the annotations (one unordered insert) and returns
	// the indexes of those whose id exists already; they are not written.
	InsertNew(ctx context.Context, list []*Annotation) (taken []int, err error)
	// Replace writes a over the stored annotation if that is still at
	// version read; ErrVersionMoved when another writer came first.
	Replace(ctx context.Context, a *Annotation, read int64) error
	// Page returns up to limit annotations matching q, in cursor order
	// (descending unless asc), strictly after cursor after ("" from the start).
	Page(ctx context.Context, q Query, after string, asc bool, limit int) ([]Annotation, error)
	// IDs returns the annotationIds matching q, in ascending cursor order.
	IDs(ctx context.Context, q Query) ([]string, error)
	// Authors returns the annotations matching q with only their ids,
	// organization, document and the authors of their comments.
	Authors(ctx context.Context, q Query) ([]Annotation, error)
	// Delete deletes annotations ids of workspace ws.
	Delete(ctx context.Context, ws string, ids []string) error
	// MoveDocument re-keys every annotation matching q to document newDocID,
	// bumping each one's version, and returns how many moved.
	MoveDocument(ctx context.Context, q Query, newDocID string) (int64, error)
	// Any reports whether some annotation matches q.
	Any(ctx context.Context, q Query) (bool, error)
}

// NumberStore keeps the annotation numbers given out per document.
type NumberStore interface {
	// Reserve takes n more numbers of the scope's document and returns the
	// last: the caller owns the n numbers up to it.
	Reserve(ctx context.Context, sc Scope, n int64) (int64, error)
	// Move carries the document's counter to newDocID (a migration), so
	// numbers stay unique there; idempotent.
	Move(ctx context.Context, sc Scope, newDocID string) error
}

// FeedStore keeps the user feeds (feed.go).
type FeedStore interface {
	// Add puts rows into their users' feeds. It is idempotent: a row that
	// has a sequence number keeps it and its entry is added again as a set
	// member.
	Add(ctx context.Context, rows []FeedItem) error
	// Remove takes row key of annotation a out of its feed.
	Remove(ctx context.Context, a *Annotation, key string) error
	// Page returns up to n entries of the user's feed of kind after
	// sequence number after, in sequence order.
	Page(ctx context.Context, q UserDataQuery, kind string, after int64, n int) ([]FeedEntry, error)
}

// PageTokenStore keeps get cursors behind opaque tokens bound to the
// workspace and the query (*pagetoken.Store satisfies it).
type PageTokenStore interface {
	Save(ctx context.Context, workspaceID, queryKey, cursor string) (string, error)
	Load(ctx context.Context, workspaceID, queryKey, token string) (string, error)
}

// The sentinels a store answers with.
var (
	ErrNoAnnotation = errors.New("annotation does not exist")
	ErrVersionMoved = errors.New("annotation changed since it was read")
)

// Query selects annotations of one workspace. Set fields AND-combine; a
// list matches any of its values.
type Query struct {
	WorkspaceID      string
	OrganizationID   string // "": any organization
	DocumentIDs      []string
	AnnotationIDs    []string
	LocationIDs      []string
	AuthorIDs        []string // the annotation's author (its first comment's)
	MentionedUserIDs []string
	StatusIDs        []string
	ResolvedBy       string
	InvolvedUserID   string
	Created, Updated Range
	Agent            AgentFilter
}

// Range bounds a time in epoch milliseconds, both ends exclusive; nil
// ends are open.
type Range struct{ After, Before *int64 }
