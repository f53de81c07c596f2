// Package folderdocs is the internal contract by which a service asks
// svc-identity which documents a folder holds: the route, its bodies and
// the Client its callers use (svc-content, for the folderId filter of
// commentannotations/get), so both ends read one definition. Folders and
// the documents in them are svc-identity's; the answer is the folder's
// own documents, as documents/get with folderId lists them (not those of
// its subfolders).
package folderdocs

import (
	"context"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/svcclient"
)

// Path is svc-identity's route, for service principals only.
const Path = "/internal/folders/documents"

// MaxDocuments is the most documents the route lists. A folder holding
// more is FAILED_PRECONDITION: a filter over that many documents is a
// scan of the organization, and the caller can page by documentIds.
const MaxDocuments = 10_000

// Request is the body of Path. A service principal acts for no
// workspace, so the workspace is in the body, as in pkg/docaccess.
type Request struct {
	WorkspaceID    string `json:"workspaceId" validate:"required"`
	OrganizationID string `json:"organizationId" validate:"required"`
	FolderID       string `json:"folderId" validate:"required"`
}

// Reply is result.data of Path: the folder's documents sorted by id, and
// whether svc-identity knows the folder (an unknown folder holds none).
type Reply struct {
	DocumentIDs []string `json:"documentIds"`
	FolderFound bool     `json:"folderFound"`
}

// Client is svc-identity reached over Path.
type Client struct{ svc svcclient.Caller }

// NewClient returns the folder lister served by client (svc-identity),
// called as the service named caller.
func NewClient(client *svcclient.Client, caller string) *Client {
	return &Client{svcclient.As(client, caller)}
}

// Documents returns the ids of the documents in folder of organization
// org in workspace ws, and whether the folder exists. Without
// svc-identity's address, or with svc-identity unreachable, it fails with
// UNAVAILABLE; a folder over MaxDocuments is passed on as svc-identity's
// FAILED_PRECONDITION. Any other refusal is a fault between the services
// (a wrong secret, a malformed request), so it is INTERNAL.
func (c *Client) Documents(ctx context.Context, ws, org, folder string) (documentIDs []string, folderFound bool, err error) {
	if c == nil || !c.svc.Configured() {
		return nil, false, api.Errorf(api.Unavailable, "folders cannot be read: svc-identity is not configured (IDENTITY_URL)")
	}
	var reply Reply
	in := Request{WorkspaceID: ws, OrganizationID: org, FolderID: folder}
	if err := c.svc.Call(ctx, Path, in, &reply); err != nil {
		return nil, false, svcclient.PassOn(err, "svc-identity refused the folder's document list", api.FailedPrecondition)
	}
	if reply.DocumentIDs == nil {
		reply.DocumentIDs = []string{}
	}
	return reply.DocumentIDs, reply.FolderFound, nil
}
