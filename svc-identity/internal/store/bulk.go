package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// duplicateKeyCode is the server's unique-index violation.
const duplicateKeyCode = 11000

// upsertItem is one upsert of a batch: the natural key of the document
// and its update ($set, $setOnInsert, $unset).
type upsertItem struct {
	key    bson.D
	update bson.M
	stamp  string // a $set field that only records the time of the write
}

// bulkUpsert applies items as upserts with few store commands: one read
// finds which documents exist, one unordered insert creates the others,
// and one command updates the existing ones by _id (updateByID). Every
// step is idempotent, so a retry after a failure part way completes the
// batch; an insert that lost a race to another writer becomes an update.
func bulkUpsert(ctx context.Context, coll *mongo.Collection, items []upsertItem) error {
	fresh, err := updateExisting(ctx, coll, items)
	if err != nil {
		return err
	}
	return insertFresh(ctx, coll, fresh)
}

// updateExisting applies the updates of items whose documents exist (one
// read, then one command of an update by _id each, see updateByID) and
// returns the others.
func updateExisting(ctx context.Context, coll *mongo.Collection, items []upsertItem) (missing []upsertItem, err error) {
	if len(items) == 0 {
		return nil, nil
	}
	existing, err := existingKeys(ctx, coll, items)
	if err != nil {
		return nil, err
	}
	var updates []idUpdate
	for _, it := range items {
		stored, found := existing[keyString(it.key)]
		if !found {
			missing = append(missing, it)
			continue
		}
		if changesNothing(stored, it) {
			continue // a retry, or the same data sent again
		}
		updates = append(updates, idUpdate{id: stored["_id"], update: withoutInsertOnly(it.update)})
	}
	return missing, updateByID(ctx, coll, updates)
}

// withoutInsertOnly is update without $setOnInsert, for a document known to
// exist.
func withoutInsertOnly(update bson.M) bson.M {
	out := make(bson.M, len(update))
	for op, v := range update {
		if op != "$setOnInsert" {
			out[op] = v
		}
	}
	return out
}

// existingKeys reads the stored documents of the items' keys, by key.
func existingKeys(ctx context.Context, coll *mongo.Collection, items []upsertItem) (map[string]bson.M, error) {
	keys := make([]bson.D, len(items))
	for i, it := range items {
		keys[i] = it.key
	}
	docs, err := findAll[bson.M](ctx, coll, anyOfKeys(keys))
	if err != nil {
		return nil, err
	}
	found := make(map[string]bson.M, len(docs))
	for _, d := range docs {
		found[keyString(keyOf(items[0].key, d))] = d
	}
	return found, nil
}

// anyOfKeys matches the documents of keys: keys that differ in one field
// only (the users of a workspace, the memberships of a resource) as one
// $in, which a store without an index for the filter (FerretDB) evaluates
// far faster than an $or of whole keys.
func anyOfKeys(keys []bson.D) bson.D {
	varying := -1
	for f := range keys[0] {
		for _, k := range keys[1:] {
			if len(k) != len(keys[0]) || k[f].Key != keys[0][f].Key {
				return orOfKeys(keys)
			}
			if !sameValue(k[f].Value, keys[0][f].Value) {
				if varying >= 0 && varying != f {
					return orOfKeys(keys)
				}
				varying = f
				break
			}
		}
	}
	if varying < 0 {
		return keys[0]
	}
	in := make(bson.A, len(keys))
	for i, k := range keys {
		in[i] = k[varying].Value
	}
	out := append(bson.D{}, keys[0]...)
	out[varying] = bson.E{Key: out[varying].Key, Value: bson.M{"$in": in}}
	return out
}

func orOfKeys(keys []bson.D) bson.D {
	or := make(bson.A, len(keys))
	for i, k := range keys {
		or[i] = k
	}
	return bson.D{{Key: "$or", Value: or}}
}

// changesNothing reports whether applying it to stored would leave every
// field but its stamp as it is: such an update is skipped, which keeps a
// retry of a large batch, or the same users sent again, cheap.
func changesNothing(stored bson.M, it upsertItem) bool {
	set, _ := it.update["$set"].(bson.M)
	for path, v := range set {
		if path == it.stamp {
			continue
		}
		if cur, ok := atPath(stored, path); !ok || !sameValue(cur, v) {
			return false
		}
	}
	unset, _ := it.update["$unset"].(bson.M)
	for path := range unset {
		if _, ok := atPath(stored, path); ok {
			return false
		}
	}
	return true
}

func atPath(doc bson.M, path string) (any, bool) {
	head, rest, nested := strings.Cut(path, ".")
	v, ok := doc[head]
	if !ok || !nested {
		return v, ok
	}
	sub, isDoc := v.(bson.M)
	if !isDoc {
		return nil, false
	}
	return atPath(sub, rest)
}

// sameValue compares a stored value with one to write by their BSON
// encoding (a difference of number types only costs an update).
func sameValue(a, b any) bool {
	ea, errA := bson.Marshal(bson.M{"v": a})
	eb, errB := bson.Marshal(bson.M{"v": b})
	return errA == nil && errB == nil && bytes.Equal(ea, eb)
}

// insertFresh inserts the documents the upserts of items would create.
func insertFresh(ctx context.Context, coll *mongo.Collection, items []upsertItem) error {
	if len(items) == 0 {
		return nil
	}
	docs := make([]any, len(items))
	for i, it := range items {
		docs[i] = insertedDoc(it)
	}
	_, err := coll.InsertMany(ctx, docs, options.InsertMany().SetOrdered(false))
	stored, err := duplicates(err)
	if err != nil {
		return wrapInsert(coll, err)
	}
	for _, i := range stored {
		// Another writer created it meanwhile: update it instead.
		if _, err := upsert(ctx, coll, items[i].key, items[i].update); err != nil {
			return err
		}
	}
	return nil
}

// duplicates returns the indexes of an unordered insert's documents that
// were stored already, or the error when any other write failed.
func duplicates(err error) ([]int, error) {
	var bwe mongo.BulkWriteException
	if err == nil || !errors.As(err, &bwe) || bwe.WriteConcernError != nil {
		return nil, err
	}
	out := make([]int, len(bwe.WriteErrors))
	for i, we := range bwe.WriteErrors {
		if we.Code != duplicateKeyCode {
			return nil, err
		}
		out[i] = we.Index
	}
	return out, nil
}

func wrapInsert(coll *mongo.Collection, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("insert many in %s: %w", coll.Name(), err)
}

// insertedDoc is the document an upsert creates: its key, $setOnInsert and
// $set, dotted paths of $set (metadata keys) made nested.
func insertedDoc(it upsertItem) bson.M {
	doc := bson.M{}
	for _, e := range it.key {
		doc[e.Key] = e.Value
	}
	for _, op := range []string{"$setOnInsert", "$set"} {
		fields, _ := it.update[op].(bson.M)
		for path, v := range fields {
			setPath(doc, path, v)
		}
	}
	return doc
}

func setPath(doc bson.M, path string, v any) {
	head, rest, nested := strings.Cut(path, ".")
	if !nested {
		doc[head] = v
		return
	}
	sub, ok := doc[head].(bson.M)
	if !ok {
		sub = bson.M{}
		doc[head] = sub
	}
	setPath(sub, rest, v)
}

// keyOf reads, from a found document, the values of the fields of key.
func keyOf(key bson.D, doc bson.M) bson.D {
	out := make(bson.D, len(key))
	for i, e := range key {
		out[i] = bson.E{Key: e.Key, Value: doc[e.Key]}
	}
	return out
}

func keyString(key bson.D) string {
	var b strings.Builder
	for _, e := range key {
		fmt.Fprintf(&b, "%s=%v\x00", e.Key, e.Value)
	}
	return b.String()
}
