// Package userdata reads everything stored about one user across services
// (users/data/get): comments, reactions and recordings from svc-content,
// notifications from svc-notify, plus the user's profile and memberships
// from identity itself.
//
// Design decisions:
//
//   - The downstream reads run in parallel. Each array pages on its own
//     cursor, owned by the service that produced it; the four cursors live
//     together in Redis behind one page token (pkg/pagetoken), bound to the
//     workspace and to the (organizationId, userId) query.
//   - An array is read until its service says it is exhausted; from then on
//     it is no longer asked for and comes back empty. The page token is null
//     once all four arrays are exhausted.
//   - A downstream failure fails the whole call: the caller gets an error
//     (UNAVAILABLE, or the downstream's own status when it is one a client
//     can act on), never a page that silently lacks one service's data.
package userdata
