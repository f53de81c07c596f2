package mongodb

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// FindAll reads every document of coll matching filter as a D and returns
// each converted to the domain type T; what names the documents in errors
// ("find judgments: ...").
func FindAll[D, T any](ctx context.Context, coll *mongo.Collection, filter any, opts *options.FindOptionsBuilder, what string, convert func(D) T) ([]T, error) {
	var optList []options.Lister[options.FindOptions]
	if opts != nil {
		optList = append(optList, opts)
	}
	cur, err := coll.Find(ctx, filter, optList...)
	if err != nil {
		return nil, fmt.Errorf("find %s: %w", what, err)
	}
	var docs []D
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("read %s: %w", what, err)
	}
	out := make([]T, len(docs))
	for i, d := range docs {
		out[i] = convert(d)
	}
	return out, nil
}

// Keyset is an order for keyset pagination: by Field, ties broken by the
// unique IDField, ascending or descending. Pages read this way have
// neither gaps nor repeats when documents come and go between them.
type Keyset struct {
	Field, IDField string
	Desc           bool
}

// Sort is the keyset's sort document.
func (k Keyset) Sort() bson.D {
	dir := 1
	if k.Desc {
		dir = -1
	}
	return bson.D{{Key: k.Field, Value: dir}, {Key: k.IDField, Value: dir}}
}

// After is the condition selecting the documents that come after the one
// at (value, id) in the keyset's order.
func (k Keyset) After(value, id any) bson.A {
	past := "$gt"
	if k.Desc {
		past = "$lt"
	}
	return bson.A{
		bson.M{k.Field: bson.M{past: value}},
		bson.M{k.Field: value, k.IDField: bson.M{past: id}},
	}
}
