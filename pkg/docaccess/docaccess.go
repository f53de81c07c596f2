// Package docaccess is the internal contract by which a service asks
// svc-identity which users have access to a document: the route, its
// bodies and the Client its callers use (svc-notify and svc-content, for
// the verifyUserPermissions of their adds), so both ends read one
// definition. svc-identity decides with its own permission rules, the
// ones permissions/get reports.
package docaccess

import (
	"context"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/svcclient"
)

// Path is svc-identity's route, for service principals only.
const Path = "/internal/documents/access"

// MaxUserIDs is the most users one call of Path names: svc-identity's
// identity.userIds limit (the one of permissions/get), which its decoding
// of Request enforces. The Client splits longer lists.
const MaxUserIDs = 1000

// Request is the body of Path. A service principal acts for no
// workspace, so the workspace is in the body, as in pkg/docmigrate.
type Request struct {
	WorkspaceID    string   `json:"workspaceId" validate:"required"`
	OrganizationID string   `json:"organizationId" validate:"required"`
	DocumentID     string   `json:"documentId" validate:"required"`
	UserIDs        []string `json:"userIds" validate:"required,max=@identity.userIds"`
}

// Reply is result.data of Path. A document (or organization) svc-identity
// does not know gives nobody access; DocumentFound tells that case apart,
// so callers can say why.
type Reply struct {
	// UserIDs are the users of the request with any access role to the
	// document, in the order of the request, each once.
	UserIDs       []string `json:"userIds"`
	DocumentFound bool     `json:"documentFound"`
}

// OrganizationPath is svc-identity's route answering which users of an
// organization have access to a document (those with a membership in it
// at any level, each decided as on Path), for a notification to the whole
// organization that must reach only them. Service principals only.
const OrganizationPath = "/internal/documents/access/organization"

// MaxUsersWithAccess is the most users OrganizationPath lists:
// MaxUserIDs, the most one explicit check (or one notification's
// notifyUsers) names. With more users having access, or an organization
// of more than MaxOrganizationUsersChecked users, it answers
// FAILED_PRECONDITION (nothing to list: the caller must name the users).
const (
	MaxUsersWithAccess          = MaxUserIDs
	MaxOrganizationUsersChecked = 10 * MaxUserIDs
)

// OrganizationRequest is the body of OrganizationPath; Reply is its
// result.data (UserIDs sorted by id).
type OrganizationRequest struct {
	WorkspaceID    string `json:"workspaceId" validate:"required"`
	OrganizationID string `json:"organizationId" validate:"required"`
	DocumentID     string `json:"documentId" validate:"required"`
}

// Client is svc-identity reached over Path.
type Client struct{ svc svcclient.Caller }

// NewClient returns the checker served by client (svc-identity), called as
// the service named caller.
func NewClient(client *svcclient.Client, caller string) *Client {
	return &Client{svcclient.As(client, caller)}
}

// UsersWithAccess returns the users among userIDs that have access to
// document doc of organization org in workspace ws, in their order, and
// whether svc-identity knows the document (with no users it asks nothing:
// nobody, not found). It never answers "everyone" for want of an answer:
// without svc-identity's address, or with svc-identity unreachable, it
// fails with UNAVAILABLE.
func (c *Client) UsersWithAccess(ctx context.Context, ws, org, doc string, userIDs []string) (withAccess []string, documentFound bool, err error) {
	if c == nil || !c.svc.Configured() {
		return nil, false, api.Errorf(api.Unavailable, "document access cannot be verified: svc-identity is not configured (IDENTITY_URL)")
	}
	withAccess = []string{}
	for start := 0; start < len(userIDs); start += MaxUserIDs {
		in := Request{WorkspaceID: ws, OrganizationID: org, DocumentID: doc, UserIDs: userIDs[start:min(start+MaxUserIDs, len(userIDs))]}
		var reply Reply
		if err := c.svc.Call(ctx, Path, in, &reply); err != nil {
			return nil, false, svcclient.PassOn(err, refusedCheck)
		}
		withAccess = append(withAccess, reply.UserIDs...)
		documentFound = reply.DocumentFound
	}
	return withAccess, documentFound, nil
}

// OrganizationUsersWithAccess returns the users of organization org in
// workspace ws with access to document doc (sorted by id, at most
// MaxUsersWithAccess) and whether svc-identity knows the document. More
// of them is FAILED_PRECONDITION, passed on as svc-identity said it: it
// is about the organization, and the caller's caller can act on it (name
// the users). Without svc-identity, UNAVAILABLE, as UsersWithAccess.
func (c *Client) OrganizationUsersWithAccess(ctx context.Context, ws, org, doc string) (withAccess []string, documentFound bool, err error) {
	if c == nil || !c.svc.Configured() {
		return nil, false, api.Errorf(api.Unavailable, "document access cannot be verified: svc-identity is not configured (IDENTITY_URL)")
	}
	var reply Reply
	in := OrganizationRequest{WorkspaceID: ws, OrganizationID: org, DocumentID: doc}
	if err := c.svc.Call(ctx, OrganizationPath, in, &reply); err != nil {
		return nil, false, svcclient.PassOn(err, refusedCheck, api.FailedPrecondition)
	}
	if reply.UserIDs == nil {
		reply.UserIDs = []string{}
	}
	return reply.UserIDs, reply.DocumentFound, nil
}

// refusedCheck is the INTERNAL error's message when svc-identity refuses
// the call itself (svcclient.PassOn): passed on, a PERMISSION_DENIED would
// read as the users' lack of access.
const refusedCheck = "svc-identity refused the document access check"
