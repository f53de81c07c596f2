// Package docmigrate is the internal contract of document migration: when
// a document is renamed (organizations/documents/migrate), svc-content asks
// every service holding data keyed by the document id whether it has any
// (HasDataPath) and then to re-key it (MigratePath). This package holds the
// routes, their bodies, the handlers each owning service mounts with its
// own Owner, and the Client its callers use, so both ends read one
// definition.
package docmigrate

import (
	"context"

	"github.com/opencollab/backend/pkg/svcclient"
)

// The routes every owning service serves, for service principals only.
const (
	MigratePath = "/internal/documents/migrate"
	HasDataPath = "/internal/documents/has-data"
)

// Document names a document of a workspace's organization: the body of
// HasDataPath.
type Document struct {
	WorkspaceID    string `json:"workspaceId" validate:"required"`
	OrganizationID string `json:"organizationId" validate:"required"`
	DocumentID     string `json:"documentId" validate:"required"`
}

// Move is the body of MigratePath: re-key Document's data to NewDocumentID.
// MigrationID names the migration; an owner may use it to make a re-run
// after a partial one finish the job (it must be idempotent either way).
type Move struct {
	WorkspaceID    string `json:"workspaceId" validate:"required"`
	OrganizationID string `json:"organizationId" validate:"required"`
	DocumentID     string `json:"documentId" validate:"required"`
	NewDocumentID  string `json:"newDocumentId" validate:"required"`
	MigrationID    string `json:"migrationId" validate:"required"`
}

// Source is the document m moves data away from.
func (m Move) Source() Document {
	return Document{WorkspaceID: m.WorkspaceID, OrganizationID: m.OrganizationID, DocumentID: m.DocumentID}
}

// Target is the document m moves data to.
func (m Move) Target() Document {
	return Document{WorkspaceID: m.WorkspaceID, OrganizationID: m.OrganizationID, DocumentID: m.NewDocumentID}
}

// Moved is result.data of MigratePath: how many records were re-keyed
// (0 on a re-run after completion).
type Moved struct {
	Moved int64 `json:"moved"`
}

// HasData is result.data of HasDataPath.
type HasData struct {
	HasData bool `json:"hasData"`
}

// Owner is a service's data keyed by document id.
type Owner interface {
	// MigrateDocument re-keys the data of m.Source() to m.Target(); it must
	// be idempotent.
	MigrateDocument(ctx context.Context, m Move) (moved int64, err error)
	// DocumentHasData reports whether any data of doc is held.
	DocumentHasData(ctx context.Context, doc Document) (bool, error)
}

// Client is an owning service reached over its internal routes.
type Client struct{ svc svcclient.Caller }

// NewClient returns the owner served by client, called as the service
// named caller.
func NewClient(client *svcclient.Client, caller string) *Client {
	return &Client{svcclient.As(client, caller)}
}

// DocumentHasData asks the owner whether it holds data of doc.
func (c *Client) DocumentHasData(ctx context.Context, doc Document) (bool, error) {
	var out HasData
	err := c.svc.Call(ctx, HasDataPath, doc, &out)
	return out.HasData, err
}

// MigrateDocument asks the owner to re-key its data.
func (c *Client) MigrateDocument(ctx context.Context, m Move) (int64, error) {
	var out Moved
	err := c.svc.Call(ctx, MigratePath, m, &out)
	return out.Moved, err
}

// Mover is the common shape of an owner whose moves are keyed updates,
// idempotent without the migration id.
type Mover interface {
	MoveDocument(ctx context.Context, workspaceID, orgID, docID, newDocID string) (int64, error)
	HasDocumentData(ctx context.Context, workspaceID, orgID, docID string) (bool, error)
}

// Keyed adapts m to an Owner.
func Keyed(m Mover) Owner { return keyed{m} }

type keyed struct{ m Mover }

func (k keyed) MigrateDocument(ctx context.Context, mv Move) (int64, error) {
	return k.m.MoveDocument(ctx, mv.WorkspaceID, mv.OrganizationID, mv.DocumentID, mv.NewDocumentID)
}

func (k keyed) DocumentHasData(ctx context.Context, doc Document) (bool, error) {
	return k.m.HasDocumentData(ctx, doc.WorkspaceID, doc.OrganizationID, doc.DocumentID)
}
