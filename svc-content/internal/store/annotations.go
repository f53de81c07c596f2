package store

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/mongodb"
	"github.com/opencollab/backend/svc-content/internal/annotations"
)

// Annotations keeps annotations as annotationDocs in one collection
// (annotations.AnnotationStore).
type Annotations struct {
	coll *mongo.Collection
	// singleWriter: the database is FerretDB (the embedded store, one
	// process), which serves only exact _id filters from an index. The
	// version guard of a write then comes from the in-process lock the
	// caller holds from read to write, not from the filter, which FerretDB
	// would answer by scanning every annotation (and still as
	// read-then-write). Set by EnsureIndexes.
	singleWriter bool
}

func (m *Annotations) EnsureIndexes(ctx context.Context) error {
	ferret, err := mongodb.IsFerretDB(ctx, m.coll.Database())
	if err != nil {
		return err
	}
	m.singleWriter = ferret
	idx := func(name string, keys bson.D, unique bool) mongo.IndexModel {
		return mongo.IndexModel{Keys: keys, Options: options.Index().SetName(name).SetUnique(unique)}
	}
	return mongodb.EnsureIndexes(ctx, m.coll,
		idx("ws_annotation", bson.D{{Key: "workspaceId", Value: 1}, {Key: "annotationId", Value: 1}}, true),
		idx("ws_org_doc_sort", bson.D{{Key: "workspaceId", Value: 1}, {Key: "organizationId", Value: 1}, {Key: "documentId", Value: 1}, {Key: "sortKey", Value: 1}}, false),
		idx("ws_org_sort", bson.D{{Key: "workspaceId", Value: 1}, {Key: "organizationId", Value: 1}, {Key: "sortKey", Value: 1}}, false),
	)
}

func (m *Annotations) Exists(ctx context.Context, ws, id string) (bool, error) {
	err := m.coll.FindOne(ctx, bson.M{"_id": annotationKey(ws, id)},
		options.FindOne().SetProjection(bson.M{"_id": 1})).Err()
	if mongodb.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("look up annotation: %w", err)
	}
	return true, nil
}

func (m *Annotations) Load(ctx context.Context, ws, id string) (*annotations.Annotation, error) {
	var d annotationDoc
	err := m.coll.FindOne(ctx, bson.M{"_id": annotationKey(ws, id)}).Decode(&d)
	if mongodb.IsNotFound(err) {
		return nil, annotations.ErrNoAnnotation
	}
	if err != nil {
		return nil, fmt.Errorf("read annotation: %w", err)
	}
	return d.annotation(), nil
}

func (m *Annotations) InsertNew(ctx context.Context, list []*annotations.Annotation) ([]int, error) {
	docs := make([]any, len(list))
	for i, a := range list {
		docs[i] = newAnnotationDoc(a)
	}
	taken, err := insertNew(ctx, m.coll, docs)
	if err != nil {
		return nil, fmt.Errorf("insert annotations: %w", err)
	}
	return taken, nil
}

func (m *Annotations) Replace(ctx context.Context, a *annotations.Annotation, read int64) error {
	d := newAnnotationDoc(a)
	guard := bson.M{"_id": d.Key, "version": read}
	if m.singleWriter {
		guard = bson.M{"_id": d.Key} // the caller's lock guards the version
	}
	res, err := m.coll.ReplaceOne(ctx, guard, d)
	if err != nil {
		return fmt.Errorf("write annotation: %w", err)
	}
	if res.MatchedCount == 0 {
		return annotations.ErrVersionMoved
	}
	return nil
}

func (m *Annotations) Page(ctx context.Context, q annotations.Query, after string, asc bool, limit int) ([]annotations.Annotation, error) {
	f, dir, op := queryFilter(q), -1, "$lt"
	if asc {
		dir, op = 1, "$gt"
	}
	if after != "" {
		f["sortKey"] = bson.M{op: after}
	}
	opts := options.Find().SetSort(bson.D{{Key: "sortKey", Value: dir}}).SetLimit(int64(limit))
	return m.find(ctx, f, opts)
}

func (m *Annotations) IDs(ctx context.Context, q annotations.Query) ([]string, error) {
	cur, err := m.coll.Find(ctx, queryFilter(q), options.Find().SetProjection(bson.M{"annotationId": 1}).SetSort(bson.M{"sortKey": 1}))
	if err != nil {
		return nil, fmt.Errorf("find annotations: %w", err)
	}
	var found []struct {
		ID string `bson:"annotationId"`
	}
	if err := cur.All(ctx, &found); err != nil {
		return nil, fmt.Errorf("read annotations: %w", err)
	}
	ids := make([]string, len(found))
	for i, f := range found {
		ids[i] = f.ID
	}
	return ids, nil
}

func (m *Annotations) Authors(ctx context.Context, q annotations.Query) ([]annotations.Annotation, error) {
	return m.find(ctx, queryFilter(q), options.Find().SetProjection(bson.M{
		"annotationId": 1, "organizationId": 1, "documentId": 1, "comments.from": 1}))
}

func (m *Annotations) find(ctx context.Context, f bson.M, opts *options.FindOptionsBuilder) ([]annotations.Annotation, error) {
	cur, err := m.coll.Find(ctx, f, opts)
	if err != nil {
		return nil, fmt.Errorf("find annotations: %w", err)
	}
	var docs []annotationDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("read annotations: %w", err)
	}
	out := make([]annotations.Annotation, len(docs))
	for i := range docs {
		out[i] = *docs[i].annotation()
	}
	return out, nil
}

func (m *Annotations) Delete(ctx context.Context, ws string, ids []string) error {
	if _, err := m.coll.DeleteMany(ctx, bson.M{"workspaceId": ws, "annotationId": bson.M{"$in": ids}}); err != nil {
		return fmt.Errorf("delete annotations: %w", err)
	}
	return nil
}

func (m *Annotations) MoveDocument(ctx context.Context, q annotations.Query, newDocID string) (int64, error) {
	res, err := m.coll.UpdateMany(ctx, queryFilter(q), bson.M{
		"$set": bson.M{"documentId": newDocID},
		"$inc": bson.M{"version": int64(1)},
	})
	if err != nil {
		return 0, fmt.Errorf("migrate annotations: %w", err)
	}
	return res.ModifiedCount, nil
}

func (m *Annotations) Any(ctx context.Context, q annotations.Query) (bool, error) {
	err := m.coll.FindOne(ctx, queryFilter(q), options.FindOne().SetProjection(bson.M{"_id": 1})).Err()
	if mongodb.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("look for annotations: %w", err)
	}
	return true, nil
}

// queryFilter is q as a filter on annotationDocs.
func queryFilter(q annotations.Query) bson.M {
	f := bson.M{"workspaceId": q.WorkspaceID}
	if q.OrganizationID != "" {
		f["organizationId"] = q.OrganizationID
	}
	for field, list := range map[string][]string{"documentId": q.DocumentIDs, "annotationId": q.AnnotationIDs,
		"location.id": q.LocationIDs, "from.userId": q.AuthorIDs, "mentionedUserIds": q.MentionedUserIDs, "status.id": q.StatusIDs} {
		if len(list) > 0 {
			f[field] = bson.M{"$in": list}
		}
	}
	if q.ResolvedBy != "" {
		f["resolvedByUserId"] = q.ResolvedBy
	}
	if q.InvolvedUserID != "" {
		f["involvedUserIds"] = q.InvolvedUserID
	}
	addRange(f, "createdAt", q.Created)
	addRange(f, "lastUpdated", q.Updated)
	addAgent(f, q.Agent)
	return f
}

// addAgent adds the conditions of an agent filter: every one of them
// selects agent annotations (sourceType "agent").
func addAgent(f bson.M, a annotations.AgentFilter) {
	if !a.Active() {
		return
	}
	f["sourceType"] = "agent"
	eq := map[string]string{"agent.agentId": a.ID, "agent.executionId": a.ExecutionID,
		"agent.agentType": a.Type, "agent.agentSource": a.Source}
	for field, v := range eq {
		if v != "" {
			f[field] = v
		}
	}
	if a.PendingSuggestions {
		f["type"], f["suggestion.status"] = "suggestion", "pending"
	}
	if len(a.Pages) > 0 {
		f["agentPage"] = bson.M{"$in": a.Pages}
	}
}

// addRange adds the bounds of r on field to f.
func addRange(f bson.M, field string, r annotations.Range) {
	b := bson.M{}
	if r.After != nil {
		b["$gt"] = *r.After
	}
	if r.Before != nil {
		b["$lt"] = *r.Before
	}
	if len(b) > 0 {
		f[field] = b
	}
}
