// Package store keeps svc-content's comment annotations in MongoDB: the
// storage documents and their mapping from the domain types, and the
// stores internal/annotations declares (AnnotationStore, NumberStore,
// FeedStore, and a database fallback of PageTokenStore), answering with
// its sentinels. The CRDT and migration packages keep their own stores.
package store

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/svc-content/internal/annotations"
)

// Collection names, prefixed so they never meet the other content
// collections in the shared database.
const (
	AnnotationsCollection = "comment_annotations"
	CountersCollection    = "comment_annotation_counters"
	FeedCollection        = "comment_annotation_user_feed"
	FeedRowsCollection    = "comment_annotation_user_feed_rows"
	PageTokensCollection  = "comment_annotation_pagetokens"
)

// New returns the annotation stores on db, page tokens included (kept in
// db until the service is handed the shared Redis store).
func New(db *mongo.Database) annotations.Stores {
	return annotations.Stores{
		Annotations: NewAnnotations(db),
		Numbers:     NewNumbers(db),
		Feeds:       NewFeed(db),
		PageTokens:  NewPageTokens(db, time.Now),
	}
}

// NewAnnotations returns the annotation store on db; call EnsureIndexes
// before serving.
func NewAnnotations(db *mongo.Database) *Annotations {
	return &Annotations{coll: collection(db, AnnotationsCollection)}
}

// NewNumbers returns the annotation-number counters on db.
func NewNumbers(db *mongo.Database) *Numbers {
	return &Numbers{coll: collection(db, CountersCollection)}
}

// NewFeed returns the user feeds on db. They are read by _id only and need
// no index.
func NewFeed(db *mongo.Database) *Feed {
	return &Feed{heads: collection(db, FeedCollection), rows: collection(db, FeedRowsCollection)}
}

// NewPageTokens returns page tokens kept in db, expiring by now.
func NewPageTokens(db *mongo.Database, now func() time.Time) *PageTokens {
	return &PageTokens{coll: collection(db, PageTokensCollection), now: now}
}

// collection is collection name of db. Open objects (users, locations,
// context, ...) are map[string]any; nested documents read back as maps so
// they encode to JSON as objects.
func collection(db *mongo.Database, name string) *mongo.Collection {
	return db.Collection(name, options.Collection().SetBSONOptions(&options.BSONOptions{DefaultDocumentMap: true}))
}

// jsonKey joins parts into one _id that no other parts give.
func jsonKey(parts ...any) string {
	b, _ := json.Marshal(parts)
	return string(b)
}

// insertNew inserts docs with one unordered insert and returns the indexes
// of those whose _id exists already; any other failure is an error.
func insertNew(ctx context.Context, coll *mongo.Collection, docs []any) ([]int, error) {
	if len(docs) == 0 {
		return nil, nil
	}
	_, err := coll.InsertMany(ctx, docs, options.InsertMany().SetOrdered(false))
	var bwe mongo.BulkWriteException
	if err != nil && (!errors.As(err, &bwe) || bwe.WriteConcernError != nil) {
		return nil, err
	}
	var taken []int
	for _, we := range bwe.WriteErrors {
		if !we.HasErrorCode(11000) { // only "already exists" is expected
			return nil, err
		}
		taken = append(taken, we.Index)
	}
	return taken, nil
}
