// Package docscope is the internal contract by which a service has
// svc-identity create the organization and document one of its writes
// names, when the caller asked for it (createOrganization and
// createDocument on comment and notification adds): the route, its body
// and the Client its callers use (svc-content and svc-notify).
package docscope

import (
	"context"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/svcclient"
)

// Path is svc-identity's route, for service principals only.
const Path = "/internal/scope/ensure"

// Request is the body of Path. A service principal acts for no
// workspace, so the workspace is in the body, as in pkg/docaccess.
type Request struct {
	WorkspaceID        string `json:"workspaceId" validate:"required"`
	OrganizationID     string `json:"organizationId" validate:"required"`
	DocumentID         string `json:"documentId"`
	CreateOrganization bool   `json:"createOrganization"`
	CreateDocument     bool   `json:"createDocument"`
}

// Client is svc-identity reached over Path.
type Client struct{ svc svcclient.Caller }

// NewClient returns the ensurer served by client (svc-identity), called as
// the service named caller.
func NewClient(client *svcclient.Client, caller string) *Client {
	return &Client{svcclient.As(client, caller)}
}

// Ensure creates the organization (createOrg) and the document (createDoc)
// of a write when they are missing. Without both flags it asks nothing;
// without svc-identity's address (a deployment without svc-identity) the
// flags have no effect. svc-identity unreachable is UNAVAILABLE; its
// NOT_FOUND (createDocument in a missing organization without
// createOrganization) and INVALID_ARGUMENT are the caller's to see; any
// other refusal is a fault between the services, INTERNAL.
func (c *Client) Ensure(ctx context.Context, ws, org, doc string, createOrg, createDoc bool) error {
	if (!createOrg && !createDoc) || c == nil || !c.svc.Configured() {
		return nil
	}
	in := Request{WorkspaceID: ws, OrganizationID: org, DocumentID: doc, CreateOrganization: createOrg, CreateDocument: createDoc}
	return svcclient.PassOn(c.svc.Call(ctx, Path, in, nil), "svc-identity refused to create the organization or document",
		api.NotFound, api.InvalidArgument)
}
