// Package identity is the business logic of svc-identity: organizations,
// folders and documents as access-controlled resources, users, memberships,
// user groups and the access rules built on them. Input arrives validated
// (types, required fields, enums, limits) from internal/httpapi; the checks
// here are the ones that need stored state, and every one of them runs
// before the operation's first write, so a refused request changes nothing.
//
// Design decisions:
//
//   - One notion of membership backs both the contact lists of users/add and
//     the grants of permissions/add. A membership is keyed by
//     (organizationId, resourceType, resourceId, userId). resourceType is
//     organization, folder or document; an organization-level membership
//     stores the organization id as its resourceId. accessRole is viewer or
//     editor (default editor); expiresAt (epoch ms, set only by
//     permissions/add) ends a grant: an expired membership grants nothing and
//     is not listed by users/get, but users/delete still removes it.
//   - Access to a document: its own membership; or an effective access type
//     of public (viewer); or an organization-level membership, unless the
//     document's effective access type is restricted or a folder on its path
//     is restricted; or a membership of its folder or any ancestor folder.
//     The highest role among the granting sources wins. A document's
//     effective access type is its own when restricted or public, else its
//     folder's, else organizationPrivate. Folders follow the same rules.
//   - Only the interface's create rules create: users/add always creates a
//     missing organization, a missing folder or document only with
//     createFolder / createDocument. permissions/add creates a missing
//     organization like users/add but refuses a missing folder or document
//     with NOT_FOUND (nothing written); generate_token writes nothing.
//   - Every answer says a document's effective access type (its own
//     restricted or public, else its folder's, else organizationPrivate),
//     never the stored "default".
//   - Folders keep parentFolderId ("root" at the top) and ancestors, the path
//     of folder ids from "root". Moving a folder recomputes the ancestors of
//     the folder and of every descendant, one record at a time: re-running a
//     move repairs a move that was interrupted.
//   - There are no transactions (FerretDB has none). Multi-step changes are
//     upserts keyed by natural ids or deletes that remove dependants first
//     and the owning record last, so a retried request finishes the job.
//   - Paging is keyset-based: the query sorts by its natural key and asks for
//     keys after the last one returned, never skipping records. The cursor
//     lives in Redis behind an opaque token bound to the workspace and to the
//     query (pkg/pagetoken).
//   - The id reported for a user is the first 32 hex digits of
//     sha256(workspaceId + userId); organizations and user groups get a
//     similar hash; folders and documents report their own id.
package identity
