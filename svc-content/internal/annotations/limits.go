package annotations

import "github.com/opencollab/backend/pkg/api"

// The batch limits of the comment-annotation operations, in one table:
// request structs name them as validate:"max=@content.…" and the API
// reference lists them from api.Limits. commentData was unbounded: one
// request with a large array drove the process to 4 GB.
var limitTable = []api.Limit{
	{Name: "content.annotations", Max: 100, Doc: "commentAnnotations of commentannotations/add"},
	{Name: "content.comments", Max: 100, Doc: "commentData of commentannotations/add (per annotation) and comments/add"},
	{Name: "content.ids", Max: 1000, Doc: "id filters (annotationIds, locationIds, userIds, commentIds, agentUrls) of update, delete and comment operations"},
	{Name: "content.queryIds", Max: 30, Doc: "id lists of commentannotations/get (documentIds, locationIds, annotationIds, userIds, mentionedUserIds, statusIds) and commentannotations/count/get (documentIds, statusIds), as the hosted product documents"},
	{Name: "content.users", Max: 100, Doc: "taggedUserContacts, attachments of a comment; updateUsers of update"},
}

func init() { api.RegisterLimits(limitTable...) }
