package httpapi

import "github.com/opencollab/backend/pkg/api"

// The batch limits of svc-identity's operations, in one table: request
// structs name them as validate:"max=@identity.…", and the API reference
// lists them from api.Limits. Each bounds the work of one request (every
// item is a few store round trips) to well under a few seconds.
var limitTable = []api.Limit{
	{Name: "identity.users", Max: 1000, Doc: "users of users/add, users/update (v1 and v2)"},
	{Name: "identity.userIds", Max: 1000, Doc: "userIds of users/delete, usergroups users add/delete, permissions/get (and of the internal document access check, pkg/docaccess)"},
	{Name: "identity.organizations", Max: 100, Doc: "organizations of organizations/add and update; organizationIds of organizations/delete"},
	{Name: "identity.folders", Max: 1000, Doc: "folders of folders/add and folders/update"},
	{Name: "identity.documents", Max: 1000, Doc: "documents of documents/add and update; documentIds of documents/delete, permissions/get"},
	{Name: "identity.folderIds", Max: 1000, Doc: "folderIds of permissions/get"},
	{Name: "identity.groups", Max: 1000, Doc: "organizationUserGroups of usergroups/add"},
	{Name: "identity.resources", Max: 100, Doc: "permissions.resources of permissions/add, permissions/remove, generate_token"},
	{Name: "identity.permissions", Max: 1000, Doc: "permissions of generate_signature and signature/verify"},
	// The hosted product documents 30 ids for its document lists; its
	// other read, access and disable-state lists take the same bound.
	{Name: "identity.queryIds", Max: 30, Doc: "id lists of users/get (userIds, organizationUserGroupIds), organizations/get, documents/get, folders and documents access/update, organizations and documents disablestate/update, documents/move"},
}

func init() { api.RegisterLimits(limitTable...) }
