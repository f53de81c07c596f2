package store

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/svc-identity/internal/identity"
)

type documentRecord struct {
	WorkspaceID    string         `bson:"workspaceId"`
	OrganizationID string         `bson:"organizationId"`
	DocumentID     string         `bson:"documentId"`
	DocumentName   string         `bson:"documentName"`
	FolderID       string         `bson:"folderId"`
	AccessType     string         `bson:"accessType"`
	Disabled       bool           `bson:"disabled"`
	Metadata       map[string]any `bson:"metadata,omitempty"`
	CreatedAt      int64          `bson:"createdAt"`
	LastUpdated    int64          `bson:"lastUpdated"`
}

func newDocumentRecord(ws string, d identity.Document) documentRecord {
	return documentRecord{
		WorkspaceID: ws, OrganizationID: d.OrganizationID, DocumentID: d.ID, DocumentName: d.Name,
		FolderID: d.FolderID, AccessType: d.AccessType, Disabled: d.Disabled, Metadata: d.Metadata,
		CreatedAt: d.CreatedAt, LastUpdated: d.LastUpdated,
	}
}

func (r documentRecord) domain() identity.Document {
	return identity.Document{
		OrganizationID: r.OrganizationID, ID: r.DocumentID, Name: r.DocumentName, FolderID: r.FolderID,
		AccessType: r.AccessType, Disabled: r.Disabled, Metadata: r.Metadata,
		CreatedAt: r.CreatedAt, LastUpdated: r.LastUpdated,
	}
}

func documentKey(ws, orgID, docID string) bson.D {
	return append(orgKey(ws, orgID), bson.E{Key: "documentId", Value: docID})
}

// GetDocument implements identity.DocumentStore.
func (s *Store) GetDocument(ctx context.Context, ws, orgID, docID string) (identity.Document, error) {
	var r documentRecord
	if err := findOne(ctx, s.docs, documentKey(ws, orgID, docID), &r); err != nil {
		return identity.Document{}, err
	}
	return r.domain(), nil
}

// GetDocuments implements identity.DocumentStore.
func (s *Store) GetDocuments(ctx context.Context, ws, orgID string, ids []string) ([]identity.Document, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	return s.findDocuments(ctx, append(orgKey(ws, orgID), bson.E{Key: "documentId", Value: bson.M{"$in": ids}}), 0)
}

// InsertDocument implements identity.DocumentStore.
func (s *Store) InsertDocument(ctx context.Context, ws string, d identity.Document) error {
	return insert(ctx, s.docs, newDocumentRecord(ws, d))
}

// EnsureDocument implements identity.DocumentStore.
func (s *Store) EnsureDocument(ctx context.Context, ws string, d identity.Document) error {
	r := newDocumentRecord(ws, d)
	_, err := upsert(ctx, s.docs, documentKey(ws, d.OrganizationID, d.ID), bson.M{"$setOnInsert": bson.M{
		"documentName": r.DocumentName, "folderId": r.FolderID, "accessType": r.AccessType,
		"disabled": r.Disabled, "createdAt": r.CreatedAt, "lastUpdated": r.LastUpdated,
	}})
	return err
}

// UpdateDocument implements identity.DocumentStore.
func (s *Store) UpdateDocument(ctx context.Context, ws, orgID string, in identity.DocumentInput, now int64) (bool, error) {
	return updateOne(ctx, s.docs, documentKey(ws, orgID, in.ID), bson.M{"$set": documentSet(in, now)})
}

// UpdateDocuments implements identity.DocumentStore with one read and an
// update by _id per distinct change (updateExisting).
func (s *Store) UpdateDocuments(ctx context.Context, ws, orgID string, ins []identity.DocumentInput, now int64) ([]string, error) {
	items := make([]upsertItem, len(ins))
	for i, in := range ins {
		items[i] = upsertItem{key: documentKey(ws, orgID, in.ID), update: bson.M{"$set": documentSet(in, now)}, stamp: "lastUpdated"}
	}
	missing, err := updateExisting(ctx, s.docs, items)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(missing))
	for i, it := range missing {
		ids[i] = it.key[len(it.key)-1].Value.(string)
	}
	return ids, nil
}

func documentSet(in identity.DocumentInput, now int64) bson.M {
	set := bson.M{"lastUpdated": now}
	if in.Name != nil {
		set["documentName"] = *in.Name
	}
	if in.AccessType != nil {
		set["accessType"] = *in.AccessType
	}
	if in.Disabled != nil {
		set["disabled"] = *in.Disabled
	}
	metadataSet(set, "metadata", in.Metadata)
	return set
}

// ListDocuments implements identity.DocumentStore.
func (s *Store) ListDocuments(ctx context.Context, ws string, q identity.DocumentQuery) ([]identity.Document, error) {
	return s.findDocuments(ctx, documentQueryFilter(ws, q), q.Limit)
}

// ListDocumentIDs implements identity.DocumentStore: the ids alone, so a
// list of thousands decodes no metadata.
func (s *Store) ListDocumentIDs(ctx context.Context, ws string, q identity.DocumentQuery) ([]string, error) {
	return findStrings(ctx, s.docs, documentQueryFilter(ws, q), "documentId", pageOptions(q.Limit, "documentId"))
}

func documentQueryFilter(ws string, q identity.DocumentQuery) bson.D {
	filter := orgKey(ws, q.OrganizationID)
	if q.FolderID != nil {
		filter = append(filter, bson.E{Key: "folderId", Value: *q.FolderID})
	}
	if q.After != "" {
		filter = append(filter, bson.E{Key: "documentId", Value: bson.M{"$gt": q.After}})
	}
	return filter
}

func (s *Store) findDocuments(ctx context.Context, filter bson.D, limit int) ([]identity.Document, error) {
	recs, err := findAll[documentRecord](ctx, s.docs, filter, pageOptions(limit, "documentId"))
	if err != nil {
		return nil, err
	}
	out := make([]identity.Document, len(recs))
	for i, r := range recs {
		out[i] = r.domain()
	}
	return out, nil
}

// DeleteDocuments implements identity.DocumentStore with one read of the
// documents, one delete of their memberships and one delete of the records
// by _id: memberships first and records last, so a retry after a failure
// finds the documents left and finishes.
func (s *Store) DeleteDocuments(ctx context.Context, ws, orgID string, docIDs []string) ([]string, error) {
	if len(docIDs) == 0 {
		return nil, nil
	}
	found, ids, err := idsByField(ctx, s.docs, append(orgKey(ws, orgID), bson.E{Key: "documentId", Value: bson.M{"$in": docIDs}}), "documentId")
	if err != nil {
		return nil, err
	}
	if _, err := deleteMany(ctx, s.members, resourceFilter(ws, orgID, identity.ResourceDocument, docIDs)); err != nil {
		return nil, err
	}
	return found, deleteByID(ctx, s.docs, ids)
}
