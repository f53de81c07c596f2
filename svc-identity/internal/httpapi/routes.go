// Package httpapi is the HTTP surface of svc-identity: each handler decodes
// and validates its request (nothing invalid reaches storage), calls the
// identity service or the signing package, and renders the spec's shape.
package httpapi

import (
	"context"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/docaccess"
	"github.com/opencollab/backend/pkg/docmigrate"
	"github.com/opencollab/backend/pkg/docscope"
	"github.com/opencollab/backend/pkg/features"
	"github.com/opencollab/backend/pkg/folderdocs"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/svc-identity/internal/erasure"
	"github.com/opencollab/backend/svc-identity/internal/identity"
	"github.com/opencollab/backend/svc-identity/internal/signing"
	"github.com/opencollab/backend/svc-identity/internal/userdata"
)

// Secrets gives a workspace's signing keys (signing.SecretStore).
type Secrets interface {
	Get(ctx context.Context, workspaceID string) (signing.Secrets, error)
	TokenSecrets
}

// Backends are the collaborators outside identity's own storage. The zero
// value allows every feature and answers users/data/get with UNAVAILABLE.
type Backends struct {
	Features features.Gate     // workspace feature switches; nil allows all
	UserData *userdata.Service // users/data/get fan-out to content and notify
	Erasure  *erasure.Service  // users/data/delete jobs; nil answers UNAVAILABLE
}

// Routes mounts every public operation on e. Each one requires a request
// signed by the gateway for a workspace. The /internal routes require a
// service's signed request. now is the clock of expiry checks and tokens.
func Routes(e *gin.Engine, signer *internalauth.Signer, ids *identity.Service, secrets Secrets, now func() time.Time, b Backends) {
	r := e.Group("", signer.Authenticate(), internalauth.RequireWorkspace())
	advancedQueries := features.Middleware(b.Features, features.AdvancedQueries)

	// Permissions and user tokens.
	r.POST("/v2/auth/generate_signature", handleGenerateSignature(secrets))
	r.POST("/v2/auth/signature/verify", handleVerifySignature(secrets))
	r.POST("/v2/auth/generate_token", handleGenerateToken(secrets, now))
	r.POST("/v2/auth/permissions/add", handleAddPermissions(ids, now))
	r.POST("/v2/auth/permissions/get", handleGetPermissions(ids))
	r.POST("/v2/auth/permissions/remove", handleRemovePermissions(ids))

	// Users.
	r.POST("/v2/users/add", handleAddUsers(ids))
	r.POST("/v2/users/update", handleUpdateUsers(ids))
	r.POST("/v1/users/update", handleUpdateUsersV1(ids))
	r.POST("/v2/users/get", advancedQueries, handleGetUsers(ids))
	r.POST("/v2/users/data/get", handleGetUserData(b.UserData))
	r.POST("/v2/users/data/delete", handleEraseUsers(b.Erasure))
	r.POST("/v2/users/data/delete/status", handleEraseStatus(b.Erasure))
	r.POST("/v1/users/delete", handleDeleteUsers(ids))
	r.POST("/v2/users/delete", handleDeleteUsers(ids))

	// Organization user groups.
	r.POST("/v2/organizations/usergroups/add", handleAddGroups(ids))
	r.POST("/v1/organizations/usergroups/users/add", handleAddGroupMembers(ids))
	r.POST("/v1/organizations/usergroups/users/delete", handleRemoveGroupMembers(ids))
	r.POST("/v2/organizations/usergroups/users/add", handleAddGroupMembers(ids))
	r.POST("/v2/organizations/usergroups/users/delete", handleRemoveGroupMembers(ids))

	// Organizations.
	r.POST("/v2/organizations/add", handleAddOrganizations(ids))
	r.POST("/v2/organizations/get", handleGetOrganizations(ids))
	r.POST("/v2/organizations/update", handleUpdateOrganizations(ids))
	r.POST("/v2/organizations/delete", handleDeleteOrganizations(ids))
	r.POST("/v2/organizations/access/disablestate/update", handleOrganizationDisable(ids))

	// Folders.
	r.POST("/v2/organizations/folders/add", handleAddFolders(ids))
	r.POST("/v2/organizations/folders/get", handleGetFolders(ids))
	r.POST("/v2/organizations/folders/delete", handleDeleteFolder(ids))
	r.POST("/v1/organizations/folders/update", advancedQueries, handleUpdateFolders(ids))
	r.POST("/v2/organizations/folders/update", advancedQueries, handleUpdateFolders(ids))
	r.POST("/v2/organizations/folders/access/update", handleFolderAccess(ids))

	// Documents.
	r.POST("/v2/organizations/documents/add", handleAddDocuments(ids))
	r.POST("/v2/organizations/documents/get", handleGetDocuments(ids))
	r.POST("/v2/organizations/documents/update", handleUpdateDocuments(ids))
	r.POST("/v2/organizations/documents/delete", handleDeleteDocuments(ids))
	r.POST("/v2/organizations/documents/move", handleMoveDocuments(ids))
	r.POST("/v2/organizations/documents/access/update", handleDocumentAccess(ids))
	r.POST("/v2/organizations/documents/access/disablestate/update", handleDocumentDisable(ids))

	// Service-to-service: document migration (svc-content orchestrates).
	docmigrate.Routes(e.Group("", signer.Authenticate(), internalauth.RequireService()), documentOwner{ids})
	e.POST(RealtimeAccessPath, signer.Authenticate(), internalauth.RequireService(), handleRealtimeAccess(ids, secrets, now))
	// Service-to-service: which users may see a document (the
	// verifyUserPermissions of notifications and comments).
	e.POST(docaccess.Path, signer.Authenticate(), internalauth.RequireService(), handleUsersWithAccess(ids))
	e.POST(docaccess.OrganizationPath, signer.Authenticate(), internalauth.RequireService(), handleOrganizationUsersWithAccess(ids))
	// Service-to-service: the documents of a folder (commentannotations/get
	// by folderId).
	e.POST(folderdocs.Path, signer.Authenticate(), internalauth.RequireService(), handleFolderDocuments(ids))
	// Service-to-service: the createOrganization and createDocument of
	// comment and notification adds.
	e.POST(docscope.Path, signer.Authenticate(), internalauth.RequireService(), handleEnsureScope(ids))
}

// workspace is the workspace the request acts for (RequireWorkspace made
// sure there is one).
func workspace(c *gin.Context) string { return internalauth.WorkspaceID(c.Request.Context()) }

// nextToken renders a page token: null on the last page.
func nextToken(token string) any {
	if token == "" {
		return nil
	}
	return token
}

// size is the page size sent, or 0 for the default.
func size(n *int) int {
	if n == nil {
		return 0
	}
	return *n
}
