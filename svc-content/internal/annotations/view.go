package annotations

import (
	"hash/fnv"
	"time"
)

// AnnotationView is a CommentAnnotation as the API returns it (§7.2).
type AnnotationView struct {
	AnnotationID          string                  `json:"annotationId"`
	AnnotationNumber      int64                   `json:"annotationNumber"`
	AnnotationIndex       int64                   `json:"annotationIndex"`
	Type                  string                  `json:"type"`
	CommentType           string                  `json:"commentType,omitempty"`
	SourceType            string                  `json:"sourceType"`
	OrganizationID        string                  `json:"organizationId"`
	DocumentID            string                  `json:"documentId"`
	Metadata              map[string]any          `json:"metadata"`
	CreatedAt             int64                   `json:"createdAt"`
	LastUpdated           int64                   `json:"lastUpdated"`
	HasDraftComments      bool                    `json:"hasDraftComments"`
	LocationID            *int64                  `json:"locationId,omitempty"`
	Location              map[string]any          `json:"location,omitempty"`
	TargetElement         map[string]any          `json:"targetElement,omitempty"`
	Context               map[string]any          `json:"context,omitempty"`
	VisibilityConfig      map[string]any          `json:"visibilityConfig"`
	SubscribedUsers       map[string]Subscription `json:"subscribedUsers"`
	UnsubscribedUsers     map[string]Subscription `json:"unsubscribedUsers"`
	SubscribedGroups      map[string]any          `json:"subscribedGroups"`
	From                  User                    `json:"from,omitempty"`
	Comments              []CommentView           `json:"comments"`
	Status                map[string]any          `json:"status"`
	Priority              map[string]any          `json:"priority,omitempty"`
	AssignedTo            User                    `json:"assignedTo,omitempty"`
	ResolvedByUserID      string                  `json:"resolvedByUserId,omitempty"`
	ResolvedByUser        User                    `json:"resolvedByUser,omitempty"`
	StatusUpdatedByUserID string                  `json:"statusUpdatedByUserId,omitempty"`
	Suggestion            map[string]any          `json:"suggestion,omitempty"`
	Agent                 map[string]any          `json:"agent,omitempty"`
	ReactionAnnotations   []ReactionView          `json:"reactionAnnotations"`
	InvolvedUserIDs       []string                `json:"involvedUserIds"`
	MentionedUserIDs      []string                `json:"mentionedUserIds"`
}

// CommentView is a Comment as the API returns it (§7.3): lastUpdated is an
// ISO-8601 string, createdAt epoch ms.
type CommentView struct {
	CommentID              int64            `json:"commentId"`
	Type                   string           `json:"type"`
	Status                 string           `json:"status"`
	IsDraft                bool             `json:"isDraft"`
	IsCommentTextAvailable bool             `json:"isCommentTextAvailable"`
	IsCommentResolverUsed  bool             `json:"isCommentResolverUsed"`
	CommentText            string           `json:"commentText"`
	CommentHTML            string           `json:"commentHtml"`
	CreatedAt              int64            `json:"createdAt"`
	LastUpdated            string           `json:"lastUpdated"`
	From                   User             `json:"from"`
	To                     []User           `json:"to"`
	TaggedUserContacts     []map[string]any `json:"taggedUserContacts"`
	Attachments            []map[string]any `json:"attachments"`
	Context                map[string]any   `json:"context,omitempty"`
	SourceType             string           `json:"sourceType"`
	Agent                  map[string]any   `json:"agent,omitempty"`
}

// ReactionView is a ReactionAnnotation (§7.3).
type ReactionView struct {
	AnnotationID        string             `json:"annotationId"`
	Type                string             `json:"type"`
	Icon                string             `json:"icon"`
	CommentAnnotationID string             `json:"commentAnnotationId"`
	LastUpdated         int64              `json:"lastUpdated"`
	FromUsers           []ReactionUserView `json:"fromUsers"`
}

// ReactionUserView is one user of a reaction.
type ReactionUserView struct {
	From        User  `json:"from"`
	LastUpdated int64 `json:"lastUpdated"`
}

// View renders the annotation as the API returns it.
func (a *Annotation) View() AnnotationView {
	v := AnnotationView{
		// The index is the document-wide ordinal, the same as the number.
		AnnotationID: a.AnnotationID, AnnotationNumber: a.AnnotationNumber, AnnotationIndex: a.AnnotationNumber, Type: a.Type,
		CommentType: a.CommentType, SourceType: a.SourceType,
		OrganizationID: a.OrganizationID, DocumentID: a.DocumentID,
		Metadata:  map[string]any{"organizationId": a.OrganizationID, "documentId": a.DocumentID},
		CreatedAt: a.CreatedAt, LastUpdated: a.LastUpdated,
		LocationID: locationID(a.Location), Location: a.Location, TargetElement: a.TargetElement,
		Context: a.Context, VisibilityConfig: visibilityOrDefault(a.VisibilityConfig), From: a.From,
		SubscribedUsers: a.subscribers(), UnsubscribedUsers: map[string]Subscription{}, SubscribedGroups: map[string]any{},
		Comments: make([]CommentView, 0, len(a.Comments)), Status: a.Status, Priority: a.Priority,
		AssignedTo: a.AssignedTo, ResolvedByUserID: a.ResolvedByUserID, ResolvedByUser: a.ResolvedByUser,
		StatusUpdatedByUserID: a.StatusUpdatedByUserID, Suggestion: a.Suggestion, Agent: a.Agent,
		ReactionAnnotations: make([]ReactionView, 0, len(a.Reactions)),
		InvolvedUserIDs:     nonNil(a.InvolvedUserIDs), MentionedUserIDs: nonNil(a.MentionedUserIDs),
	}
	for _, c := range a.Comments {
		v.Comments = append(v.Comments, c.View())
	}
	for _, r := range a.Reactions {
		v.ReactionAnnotations = append(v.ReactionAnnotations, r.view(a.AnnotationID))
	}
	return v
}

// View renders the comment as the API returns it.
func (c Comment) View() CommentView {
	return CommentView{
		CommentID: c.CommentID, Type: c.Type, Status: c.Status,
		IsCommentTextAvailable: c.IsCommentTextAvailable, IsCommentResolverUsed: c.IsCommentResolverUsed,
		CommentText: c.CommentText, CommentHTML: c.CommentHTML, CreatedAt: c.CreatedAt,
		LastUpdated: isoMs(c.LastUpdated), From: c.From, To: nonNil(c.To),
		TaggedUserContacts: nonNil(c.TaggedUserContacts), Attachments: nonNil(c.Attachments), Context: c.Context,
		SourceType: orDefault(c.SourceType, sourceRESTAPI), Agent: c.Agent,
	}
}

func (r Reaction) view(annotationID string) ReactionView {
	v := ReactionView{
		AnnotationID: r.ReactionID, Type: "reaction", Icon: r.Icon, CommentAnnotationID: annotationID,
		LastUpdated: r.LastUpdated, FromUsers: make([]ReactionUserView, 0, len(r.FromUsers)),
	}
	for _, fu := range r.FromUsers {
		v.FromUsers = append(v.FromUsers, ReactionUserView(fu))
	}
	return v
}

// locationID is the numeric id responses add to a location: a stable hash
// of location.id (absent without a location).
func locationID(loc map[string]any) *int64 {
	id, ok := loc["id"].(string)
	if !ok {
		return nil
	}
	h := fnv.New32a()
	h.Write([]byte(id))
	n := int64(h.Sum32())
	return &n
}

func isoMs(ms int64) string {
	return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z")
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
