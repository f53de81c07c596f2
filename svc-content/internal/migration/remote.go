package migration

import (
	"context"

	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/svcclient"
)

// The document-migration contract every owning service serves.
const (
	MigratePath = "/internal/documents/migrate"
	HasDataPath = "/internal/documents/has-data"
)

// principal is svc-content's identity towards the owners.
var principal = internalauth.Service("content")

// Remote is an owner reached over its /internal routes.
type Remote struct {
	client *svcclient.Client
}

// NewRemote returns the owner served by client.
func NewRemote(client *svcclient.Client) *Remote { return &Remote{client: client} }

type hasDataRequest struct {
	WorkspaceID    string `json:"workspaceId"`
	OrganizationID string `json:"organizationId"`
	DocumentID     string `json:"documentId"`
}

type hasDataResponse struct {
	HasData bool `json:"hasData"`
}

type migrateResponse struct {
	Moved int64 `json:"moved"`
}

// HasData asks whether the owner holds data of doc.
func (r *Remote) HasData(ctx context.Context, doc Document) (bool, error) {
	var out hasDataResponse
	err := r.client.Call(ctx, HasDataPath, principal,
		hasDataRequest{WorkspaceID: doc.WorkspaceID, OrganizationID: doc.OrganizationID, DocumentID: doc.DocumentID}, &out)
	return out.HasData, err
}

// Migrate asks the owner to re-key its data.
func (r *Remote) Migrate(ctx context.Context, req StepRequest) (int64, error) {
	var out migrateResponse
	err := r.client.Call(ctx, MigratePath, principal, req, &out)
	return out.Moved, err
}

// Mover is in-process data keyed by document id, moved without HTTP.
type Mover interface {
	MigrateDocument(ctx context.Context, workspaceID, orgID, oldDocID, newDocID string) (int64, error)
	HasData(ctx context.Context, workspaceID, orgID, docID string) (bool, error)
}

// Local adapts a Mover to an Owner (svc-content's own data).
type Local struct{ m Mover }

// NewLocal returns the owner of m's data.
func NewLocal(m Mover) *Local { return &Local{m: m} }

// HasData asks m.
func (o *Local) HasData(ctx context.Context, doc Document) (bool, error) {
	return o.m.HasData(ctx, doc.WorkspaceID, doc.OrganizationID, doc.DocumentID)
}

// Migrate moves m's data; m's moves are keyed updates, idempotent without
// the migration id.
func (o *Local) Migrate(ctx context.Context, req StepRequest) (int64, error) {
	return o.m.MigrateDocument(ctx, req.WorkspaceID, req.OrganizationID, req.DocumentID, req.NewDocumentID)
}
