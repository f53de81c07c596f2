package store

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/svc-identity/internal/identity"
)

type folderRecord struct {
	WorkspaceID    string   `bson:"workspaceId"`
	OrganizationID string   `bson:"organizationId"`
	FolderID       string   `bson:"folderId"`
	FolderName     string   `bson:"folderName"`
	ParentFolderID string   `bson:"parentFolderId"`
	Ancestors      []string `bson:"ancestors"`
	AccessType     string   `bson:"accessType"`
	CreatedAt      int64    `bson:"createdAt"`
	LastUpdated    int64    `bson:"lastUpdated"`
}

func newFolderRecord(ws string, f identity.Folder) folderRecord {
	return folderRecord{
		WorkspaceID: ws, OrganizationID: f.OrganizationID, FolderID: f.ID, FolderName: f.Name,
		ParentFolderID: f.ParentID, Ancestors: f.Ancestors, AccessType: f.AccessType,
		CreatedAt: f.CreatedAt, LastUpdated: f.LastUpdated,
	}
}

func (r folderRecord) domain() identity.Folder {
	return identity.Folder{
		OrganizationID: r.OrganizationID, ID: r.FolderID, Name: r.FolderName, ParentID: r.ParentFolderID,
		Ancestors: r.Ancestors, AccessType: r.AccessType, CreatedAt: r.CreatedAt, LastUpdated: r.LastUpdated,
	}
}

func folderKey(ws, orgID, folderID string) bson.D {
	return append(orgKey(ws, orgID), bson.E{Key: "folderId", Value: folderID})
}

// GetFolder implements identity.FolderStore.
func (s *Store) GetFolder(ctx context.Context, ws, orgID, folderID string) (identity.Folder, error) {
	var r folderRecord
	if err := findOne(ctx, s.folders, folderKey(ws, orgID, folderID), &r); err != nil {
		return identity.Folder{}, err
	}
	return r.domain(), nil
}

// GetFolders implements identity.FolderStore.
func (s *Store) GetFolders(ctx context.Context, ws, orgID string, ids []string) ([]identity.Folder, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	return s.findFolders(ctx, append(orgKey(ws, orgID), bson.E{Key: "folderId", Value: bson.M{"$in": ids}}))
}

// InsertFolder implements identity.FolderStore.
func (s *Store) InsertFolder(ctx context.Context, ws string, f identity.Folder) error {
	return insert(ctx, s.folders, newFolderRecord(ws, f))
}

// EnsureFolder implements identity.FolderStore.
func (s *Store) EnsureFolder(ctx context.Context, ws string, f identity.Folder) error {
	r := newFolderRecord(ws, f)
	_, err := upsert(ctx, s.folders, folderKey(ws, f.OrganizationID, f.ID), bson.M{"$setOnInsert": bson.M{
		"folderName": r.FolderName, "parentFolderId": r.ParentFolderID, "ancestors": r.Ancestors,
		"accessType": r.AccessType, "createdAt": r.CreatedAt, "lastUpdated": r.LastUpdated,
	}})
	return err
}

// ListFolders implements identity.FolderStore.
func (s *Store) ListFolders(ctx context.Context, ws, orgID string) ([]identity.Folder, error) {
	return s.findFolders(ctx, orgKey(ws, orgID))
}

// ListDescendantFolders implements identity.FolderStore: a folder is below
// folderID when folderID is on its ancestors path.
func (s *Store) ListDescendantFolders(ctx context.Context, ws, orgID, folderID string) ([]identity.Folder, error) {
	return s.findFolders(ctx, append(orgKey(ws, orgID), bson.E{Key: "ancestors", Value: folderID}))
}

func (s *Store) findFolders(ctx context.Context, filter bson.D) ([]identity.Folder, error) {
	recs, err := findAll[folderRecord](ctx, s.folders, filter, sortedBy("folderId"))
	if err != nil {
		return nil, err
	}
	out := make([]identity.Folder, len(recs))
	for i, r := range recs {
		out[i] = r.domain()
	}
	return out, nil
}

// RenameFolder implements identity.FolderStore.
func (s *Store) RenameFolder(ctx context.Context, ws, orgID, folderID, name string, now int64) error {
	_, err := updateOne(ctx, s.folders, folderKey(ws, orgID, folderID), bson.M{"$set": bson.M{
		"folderName": name, "lastUpdated": now,
	}})
	return err
}

// PlaceFolder implements identity.FolderStore.
func (s *Store) PlaceFolder(ctx context.Context, ws, orgID, folderID, parentID string, ancestors []string, now int64) error {
	_, err := updateOne(ctx, s.folders, folderKey(ws, orgID, folderID), bson.M{"$set": bson.M{
		"parentFolderId": parentID, "ancestors": ancestors, "lastUpdated": now,
	}})
	return err
}

// DeleteFolders implements identity.FolderStore: memberships of the
// folders' documents, the documents, the folders' memberships, then the
// folder records.
func (s *Store) DeleteFolders(ctx context.Context, ws, orgID string, folderIDs []string) error {
	if len(folderIDs) == 0 {
		return nil
	}
	in := bson.M{"$in": folderIDs}
	inFolders := append(orgKey(ws, orgID), bson.E{Key: "folderId", Value: in})
	docs, err := findAll[documentRecord](ctx, s.docs, inFolders,
		options.Find().SetProjection(bson.M{"documentId": 1}))
	if err != nil {
		return err
	}
	docIDs := make([]string, len(docs))
	for i, d := range docs {
		docIDs[i] = d.DocumentID
	}
	steps := []struct {
		coll   *mongo.Collection
		filter bson.D
	}{
		{s.members, resourceFilter(ws, orgID, identity.ResourceDocument, docIDs)},
		{s.docs, inFolders},
		{s.members, resourceFilter(ws, orgID, identity.ResourceFolder, folderIDs)},
		{s.folders, inFolders},
	}
	for _, step := range steps {
		if _, err := deleteMany(ctx, step.coll, step.filter); err != nil {
			return err
		}
	}
	return nil
}
