// Package store is the MongoDB persistence of svc-identity. Every record
// carries workspaceId and every query filters on it; natural ids are unique
// per workspace through compound indexes created by EnsureIndexes.
package store

import (
	"context"
	"errors"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/mongodb"
	"github.com/opencollab/backend/svc-identity/internal/identity"
)

// Collection names.
const (
	OrganizationsCollection = "organizations"
	FoldersCollection       = "folders"
	DocumentsCollection     = "documents"
	UsersCollection         = "users"
	MembershipsCollection   = "memberships"
	GroupsCollection        = "usergroups"
	GroupMembersCollection  = "groupmembers"
)

// Store implements identity.Store on one database.
type Store struct {
	orgs, folders, docs, users, members, groups, groupMembers *mongo.Collection
}

var _ identity.Store = (*Store)(nil)

// New returns a Store on db. Open metadata is read back as plain maps so it
// encodes to JSON as objects.
func New(db *mongo.Database) *Store {
	opts := options.Collection().SetBSONOptions(&options.BSONOptions{DefaultDocumentMap: true})
	c := func(name string) *mongo.Collection { return db.Collection(name, opts) }
	return &Store{
		orgs: c(OrganizationsCollection), folders: c(FoldersCollection), docs: c(DocumentsCollection),
		users: c(UsersCollection), members: c(MembershipsCollection),
		groups: c(GroupsCollection), groupMembers: c(GroupMembersCollection),
	}
}

// EnsureIndexes creates the unique natural-id indexes and the lookup
// indexes; running it again is a no-op.
func (s *Store) EnsureIndexes(ctx context.Context) error {
	unique := func(keys ...string) mongo.IndexModel {
		return mongo.IndexModel{Keys: keyDoc(keys), Options: options.Index().SetUnique(true)}
	}
	plain := func(keys ...string) mongo.IndexModel { return mongo.IndexModel{Keys: keyDoc(keys)} }
	all := []struct {
		coll   *mongo.Collection
		models []mongo.IndexModel
	}{
		{s.orgs, []mongo.IndexModel{unique("workspaceId", "organizationId")}},
		{s.folders, []mongo.IndexModel{unique("workspaceId", "organizationId", "folderId")}},
		{s.docs, []mongo.IndexModel{
			unique("workspaceId", "organizationId", "documentId"),
			plain("workspaceId", "organizationId", "folderId"),
		}},
		{s.users, []mongo.IndexModel{unique("workspaceId", "userId")}},
		{s.members, []mongo.IndexModel{
			unique("workspaceId", "organizationId", "resourceType", "resourceId", "userId"),
			plain("workspaceId", "organizationId", "userId"),
		}},
		{s.groups, []mongo.IndexModel{unique("workspaceId", "organizationId", "groupId")}},
		{s.groupMembers, []mongo.IndexModel{
			unique("workspaceId", "organizationId", "groupId", "userId"),
			plain("workspaceId", "organizationId", "userId"),
		}},
	}
	for _, c := range all {
		if err := mongodb.EnsureIndexes(ctx, c.coll, c.models...); err != nil {
			return err
		}
	}
	return nil
}

func keyDoc(keys []string) bson.D {
	d := make(bson.D, len(keys))
	for i, k := range keys {
		d[i] = bson.E{Key: k, Value: 1}
	}
	return d
}

// findOne decodes the single match of filter into dst, or returns
// identity.ErrNotFound.
func findOne(ctx context.Context, coll *mongo.Collection, filter any, dst any) error {
	err := coll.FindOne(ctx, filter).Decode(dst)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return identity.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("find in %s: %w", coll.Name(), err)
	}
	return nil
}

// findAll decodes every match of filter.
func findAll[T any](ctx context.Context, coll *mongo.Collection, filter any, opts ...options.Lister[options.FindOptions]) ([]T, error) {
	cur, err := coll.Find(ctx, filter, opts...)
	if err != nil {
		return nil, fmt.Errorf("find in %s: %w", coll.Name(), err)
	}
	var out []T
	if err := cur.All(ctx, &out); err != nil {
		return nil, fmt.Errorf("read %s: %w", coll.Name(), err)
	}
	return out, nil
}

// findStrings is the string field of every match of filter, read alone
// (projected): a list of ids decodes nothing else. A match without it
// reads as "". opts may add a sort and a limit.
func findStrings(ctx context.Context, coll *mongo.Collection, filter any, field string, opts *options.FindOptionsBuilder) ([]string, error) {
	if opts == nil {
		opts = options.Find()
	}
	recs, err := findAll[bson.Raw](ctx, coll, filter, opts.SetProjection(bson.M{field: 1}))
	if err != nil {
		return nil, err
	}
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i], _ = r.Lookup(field).StringValueOK()
	}
	return out, nil
}

// upsert applies update to the match of filter, inserting it when there is
// none; created reports an insert. Two racing inserts of the same natural
// id collide on the unique index: the loser retries once, now as an update.
func upsert(ctx context.Context, coll *mongo.Collection, filter, update any) (created bool, err error) {
	opts := options.UpdateOne().SetUpsert(true)
	res, err := coll.UpdateOne(ctx, filter, update, opts)
	if mongodb.IsDuplicateKey(err) {
		res, err = coll.UpdateOne(ctx, filter, update, opts)
	}
	if err != nil {
		return false, fmt.Errorf("upsert in %s: %w", coll.Name(), err)
	}
	return res.UpsertedCount > 0, nil
}

// insert adds doc, mapping a unique-index violation to
// identity.ErrAlreadyExists.
func insert(ctx context.Context, coll *mongo.Collection, doc any) error {
	_, err := coll.InsertOne(ctx, doc)
	if mongodb.IsDuplicateKey(err) {
		return identity.ErrAlreadyExists
	}
	if err != nil {
		return fmt.Errorf("insert in %s: %w", coll.Name(), err)
	}
	return nil
}

// updateOne applies update to the match of filter; found reports a match.
func updateOne(ctx context.Context, coll *mongo.Collection, filter, update any) (found bool, err error) {
	res, err := coll.UpdateOne(ctx, filter, update)
	if err != nil {
		return false, fmt.Errorf("update in %s: %w", coll.Name(), err)
	}
	return res.MatchedCount > 0, nil
}

// deleteMany removes every match of filter and returns how many.
func deleteMany(ctx context.Context, coll *mongo.Collection, filter any) (int64, error) {
	res, err := coll.DeleteMany(ctx, filter)
	if err != nil {
		return 0, fmt.Errorf("delete in %s: %w", coll.Name(), err)
	}
	return res.DeletedCount, nil
}

// exists reports whether filter matches anything.
func exists(ctx context.Context, coll *mongo.Collection, filter any) (bool, error) {
	n, err := coll.CountDocuments(ctx, filter, options.Count().SetLimit(1))
	if err != nil {
		return false, fmt.Errorf("count in %s: %w", coll.Name(), err)
	}
	return n > 0, nil
}

// sortedBy sorts by keys ascending.
func sortedBy(keys ...string) *options.FindOptionsBuilder {
	return options.Find().SetSort(keyDoc(keys))
}

// pageOptions sorts by keys ascending and caps the result at limit.
func pageOptions(limit int, keys ...string) *options.FindOptionsBuilder {
	return sortedBy(keys...).SetLimit(int64(limit))
}

// metadataSet adds "<field>.<key>": value for each key, merging into the
// stored object. Keys were checked for '$' and '.' when the request was
// decoded.
func metadataSet(set bson.M, field string, m map[string]any) {
	for k, v := range m {
		set[field+"."+k] = v
	}
}
