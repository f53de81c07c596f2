package store

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// SetFolderAccessType implements identity.AccessStore.
func (s *Store) SetFolderAccessType(ctx context.Context, ws, orgID, folderID, accessType string, now int64) (bool, error) {
	return updateOne(ctx, s.folders, folderKey(ws, orgID, folderID), bson.M{"$set": bson.M{
		"accessType": accessType, "lastUpdated": now,
	}})
}

// SetDocumentFolder implements identity.AccessStore.
func (s *Store) SetDocumentFolder(ctx context.Context, ws, orgID, docID, folderID string, now int64) (bool, error) {
	return updateOne(ctx, s.docs, documentKey(ws, orgID, docID), bson.M{"$set": bson.M{
		"folderId": folderID, "lastUpdated": now,
	}})
}
