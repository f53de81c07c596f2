package store

import "github.com/opencollab/backend/svc-content/internal/annotations"

// The storage documents of annotations: the BSON shape of the
// comment_annotations collection, kept apart from the domain type
// (annotations.Annotation) so a change of one is a visible change of the
// mapping below.

// annotationDoc is a stored comment annotation.
type annotationDoc struct {
	// Key is the _id: workspace and annotationId, so the annotation is read
	// by exact _id (the one lookup FerretDB does not answer with a scan).
	Key                   string           `bson:"_id"`
	WorkspaceID           string           `bson:"workspaceId"`
	OrganizationID        string           `bson:"organizationId"`
	DocumentID            string           `bson:"documentId"`
	AnnotationID          string           `bson:"annotationId"`
	AnnotationNumber      int64            `bson:"annotationNumber"`
	Type                  string           `bson:"type"`
	CommentType           string           `bson:"commentType,omitempty"`
	SourceType            string           `bson:"sourceType"`
	Location              map[string]any   `bson:"location,omitempty"`
	TargetElement         map[string]any   `bson:"targetElement,omitempty"`
	Status                map[string]any   `bson:"status"`
	Priority              map[string]any   `bson:"priority,omitempty"`
	AssignedTo            annotations.User `bson:"assignedTo,omitempty"`
	From                  annotations.User `bson:"from,omitempty"`
	Comments              []commentDoc     `bson:"comments"`
	Reactions             []reactionDoc    `bson:"reactions"`
	InvolvedUserIDs       []string         `bson:"involvedUserIds"`
	MentionedUserIDs      []string         `bson:"mentionedUserIds"`
	ResolvedByUserID      string           `bson:"resolvedByUserId,omitempty"`
	ResolvedByUser        annotations.User `bson:"resolvedByUser,omitempty"`
	StatusUpdatedByUserID string           `bson:"statusUpdatedByUserId,omitempty"`
	Context               map[string]any   `bson:"context,omitempty"`
	VisibilityConfig      map[string]any   `bson:"visibilityConfig,omitempty"`
	Suggestion            map[string]any   `bson:"suggestion,omitempty"`
	Agent                 map[string]any   `bson:"agent,omitempty"`
	AgentPage             string           `bson:"agentPage,omitempty"`
	CreatedAt             int64            `bson:"createdAt"`
	LastUpdated           int64            `bson:"lastUpdated"`
	// SortKey orders get pages: zero-padded lastUpdated, then annotationId,
	// so one indexed range condition is the whole keyset cursor.
	SortKey       string   `bson:"sortKey"`
	LastCommentID int64    `bson:"lastCommentId"`
	Version       int64    `bson:"version"`
	IndexedRows   []string `bson:"indexedRows"`
}

type commentDoc struct {
	CommentID              int64              `bson:"commentId"`
	Type                   string             `bson:"type"`
	Status                 string             `bson:"status"`
	CommentText            string             `bson:"commentText"`
	CommentHTML            string             `bson:"commentHtml"`
	From                   annotations.User   `bson:"from"`
	To                     []annotations.User `bson:"to"`
	TaggedUserContacts     []map[string]any   `bson:"taggedUserContacts,omitempty"`
	Attachments            []map[string]any   `bson:"attachments,omitempty"`
	Context                map[string]any     `bson:"context,omitempty"`
	IsCommentTextAvailable bool               `bson:"isCommentTextAvailable"`
	IsCommentResolverUsed  bool               `bson:"isCommentResolverUsed"`
	SourceType             string             `bson:"sourceType,omitempty"`
	Agent                  map[string]any     `bson:"agent,omitempty"`
	CreatedAt              int64              `bson:"createdAt"`
	LastUpdated            int64              `bson:"lastUpdated"`
}

type reactionDoc struct {
	ReactionID  string            `bson:"reactionId"`
	Icon        string            `bson:"icon"`
	FromUsers   []reactionUserDoc `bson:"fromUsers"`
	CreatedAt   int64             `bson:"createdAt"`
	LastUpdated int64             `bson:"lastUpdated"`
}

type reactionUserDoc struct {
	From        annotations.User `bson:"from"`
	LastUpdated int64            `bson:"lastUpdated"`
}

// annotationKey is the _id of annotation id in workspace ws.
func annotationKey(ws, id string) string { return jsonKey(ws, id) }

func newAnnotationDoc(a *annotations.Annotation) annotationDoc {
	return annotationDoc{
		Key: annotationKey(a.WorkspaceID, a.AnnotationID), WorkspaceID: a.WorkspaceID,
		OrganizationID: a.OrganizationID, DocumentID: a.DocumentID, AnnotationID: a.AnnotationID,
		AnnotationNumber: a.AnnotationNumber, Type: a.Type, CommentType: a.CommentType, SourceType: a.SourceType,
		Location: a.Location, TargetElement: a.TargetElement, Status: a.Status, Priority: a.Priority,
		AssignedTo: a.AssignedTo, From: a.From, Comments: mapSlice(a.Comments, newCommentDoc),
		Reactions: mapSlice(a.Reactions, newReactionDoc), InvolvedUserIDs: a.InvolvedUserIDs,
		MentionedUserIDs: a.MentionedUserIDs, ResolvedByUserID: a.ResolvedByUserID, ResolvedByUser: a.ResolvedByUser,
		StatusUpdatedByUserID: a.StatusUpdatedByUserID, Context: a.Context, VisibilityConfig: a.VisibilityConfig,
		Suggestion: a.Suggestion, Agent: a.Agent, AgentPage: a.AgentPage, CreatedAt: a.CreatedAt, LastUpdated: a.LastUpdated,
		SortKey: a.Cursor(), LastCommentID: a.LastCommentID, Version: a.Version, IndexedRows: a.IndexedRows,
	}
}

func (d *annotationDoc) annotation() *annotations.Annotation {
	return &annotations.Annotation{
		WorkspaceID: d.WorkspaceID, OrganizationID: d.OrganizationID, DocumentID: d.DocumentID,
		AnnotationID: d.AnnotationID, AnnotationNumber: d.AnnotationNumber, Type: d.Type,
		CommentType: d.CommentType, SourceType: d.SourceType, Location: d.Location,
		TargetElement: d.TargetElement, Status: d.Status, Priority: d.Priority, AssignedTo: d.AssignedTo,
		From: d.From, Comments: mapSlice(d.Comments, commentDoc.comment),
		Reactions: mapSlice(d.Reactions, reactionDoc.reaction), InvolvedUserIDs: d.InvolvedUserIDs,
		MentionedUserIDs: d.MentionedUserIDs, ResolvedByUserID: d.ResolvedByUserID, ResolvedByUser: d.ResolvedByUser,
		StatusUpdatedByUserID: d.StatusUpdatedByUserID, Context: d.Context, VisibilityConfig: d.VisibilityConfig,
		Suggestion: d.Suggestion, Agent: d.Agent, AgentPage: d.AgentPage, CreatedAt: d.CreatedAt, LastUpdated: d.LastUpdated,
		LastCommentID: d.LastCommentID, Version: d.Version, IndexedRows: d.IndexedRows,
	}
}

func newCommentDoc(c annotations.Comment) commentDoc { return commentDoc(c) }
func (d commentDoc) comment() annotations.Comment    { return annotations.Comment(d) }

func newReactionDoc(r annotations.Reaction) reactionDoc {
	return reactionDoc{ReactionID: r.ReactionID, Icon: r.Icon, FromUsers: mapSlice(r.FromUsers, newReactionUserDoc),
		CreatedAt: r.CreatedAt, LastUpdated: r.LastUpdated}
}

func (d reactionDoc) reaction() annotations.Reaction {
	return annotations.Reaction{ReactionID: d.ReactionID, Icon: d.Icon, FromUsers: mapSlice(d.FromUsers, reactionUserDoc.reactionUser),
		CreatedAt: d.CreatedAt, LastUpdated: d.LastUpdated}
}

func newReactionUserDoc(u annotations.ReactionUser) reactionUserDoc { return reactionUserDoc(u) }
func (d reactionUserDoc) reactionUser() annotations.ReactionUser    { return annotations.ReactionUser(d) }

// mapSlice maps list with f, keeping nil as nil (an absent array stays
// absent, an empty one empty).
func mapSlice[T, U any](list []T, f func(T) U) []U {
	if list == nil {
		return nil
	}
	out := make([]U, len(list))
	for i, v := range list {
		out[i] = f(v)
	}
	return out
}
