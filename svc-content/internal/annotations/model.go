package annotations

import (
	"fmt"
	"slices"
)

// User is a user object as the caller sent it (userId plus any profile
// keys); it is stored and returned as is.
type User = map[string]any

// Annotation is a stored comment annotation.
type Annotation struct {
	// Key is the _id: workspace and annotationId, so the annotation is read
	// by exact _id (the one lookup FerretDB does not answer with a scan).
	Key                   string         `bson:"_id"`
	WorkspaceID           string         `bson:"workspaceId"`
	OrganizationID        string         `bson:"organizationId"`
	DocumentID            string         `bson:"documentId"`
	AnnotationID          string         `bson:"annotationId"`
	AnnotationNumber      int64          `bson:"annotationNumber"`
	Type                  string         `bson:"type"`
	CommentType           string         `bson:"commentType,omitempty"`
	SourceType            string         `bson:"sourceType"`
	Location              map[string]any `bson:"location,omitempty"`
	TargetElement         map[string]any `bson:"targetElement,omitempty"`
	Status                map[string]any `bson:"status"`
	Priority              map[string]any `bson:"priority,omitempty"`
	AssignedTo            User           `bson:"assignedTo,omitempty"`
	From                  User           `bson:"from,omitempty"`
	Comments              []Comment      `bson:"comments"`
	Reactions             []Reaction     `bson:"reactions"`
	InvolvedUserIDs       []string       `bson:"involvedUserIds"`
	MentionedUserIDs      []string       `bson:"mentionedUserIds"`
	ResolvedByUserID      string         `bson:"resolvedByUserId,omitempty"`
	ResolvedByUser        User           `bson:"resolvedByUser,omitempty"`
	StatusUpdatedByUserID string         `bson:"statusUpdatedByUserId,omitempty"`
	Context               map[string]any `bson:"context,omitempty"`
	VisibilityConfig      map[string]any `bson:"visibilityConfig,omitempty"`
	Suggestion            map[string]any `bson:"suggestion,omitempty"`
	CreatedAt             int64          `bson:"createdAt"`
	LastUpdated           int64          `bson:"lastUpdated"`

	// SortKey orders get pages: zero-padded lastUpdated, then annotationId,
	// so one indexed range condition is the whole keyset cursor.
	SortKey string `bson:"sortKey"`
	// LastCommentID is the highest commentId ever used here, so generated
	// ids keep increasing even after deletions.
	LastCommentID int64 `bson:"lastCommentId"`
	// Version is bumped by every write; writes replace on the version read.
	Version int64 `bson:"version"`
	// IndexedRows are the keys of the annotation's rows in the user feed
	// (feed.go), as of this version.
	IndexedRows []string `bson:"indexedRows"`
}

// annotationKey is the _id of annotation id in workspace ws.
func annotationKey(ws, id string) string { return jsonKey(ws, id) }

// Comment is one comment of an annotation.
type Comment struct {
	CommentID              int64            `bson:"commentId"`
	Type                   string           `bson:"type"`
	Status                 string           `bson:"status"`
	CommentText            string           `bson:"commentText"`
	CommentHTML            string           `bson:"commentHtml"`
	From                   User             `bson:"from"`
	To                     []User           `bson:"to"`
	TaggedUserContacts     []map[string]any `bson:"taggedUserContacts,omitempty"`
	Attachments            []map[string]any `bson:"attachments,omitempty"`
	Context                map[string]any   `bson:"context,omitempty"`
	IsCommentTextAvailable bool             `bson:"isCommentTextAvailable"`
	IsCommentResolverUsed  bool             `bson:"isCommentResolverUsed"`
	CreatedAt              int64            `bson:"createdAt"`
	LastUpdated            int64            `bson:"lastUpdated"`
}

// Reaction is one icon on an annotation with the users who chose it (the
// spec's ReactionAnnotation).
type Reaction struct {
	ReactionID  string         `bson:"reactionId"`
	Icon        string         `bson:"icon"`
	FromUsers   []ReactionUser `bson:"fromUsers"`
	CreatedAt   int64          `bson:"createdAt"`
	LastUpdated int64          `bson:"lastUpdated"`
}

// ReactionUser is one user's reaction and when it was made.
type ReactionUser struct {
	From        User  `bson:"from"`
	LastUpdated int64 `bson:"lastUpdated"`
}

// terminalStatus is the status type that resolves an annotation.
const terminalStatus = "terminal"

// userID returns u's userId ("" when absent or not a string).
func userID(u User) string {
	id, _ := u["userId"].(string)
	return id
}

// comment returns the comment with id, or nil.
func (a *Annotation) comment(id int64) *Comment {
	for i := range a.Comments {
		if a.Comments[i].CommentID == id {
			return &a.Comments[i]
		}
	}
	return nil
}

// touch marks a write at ms.
func (a *Annotation) touch(ms int64) {
	a.LastUpdated = ms
	a.derive()
}

// derive recomputes the read-only fields from the annotation's content.
func (a *Annotation) derive() {
	mentioned := []string{}
	involved := []string{}
	add := func(list *[]string, id string) {
		if id != "" && !slices.Contains(*list, id) {
			*list = append(*list, id)
		}
	}
	add(&involved, userID(a.From))
	for _, c := range a.Comments {
		add(&involved, userID(c.From))
		for _, u := range c.To {
			add(&mentioned, userID(u))
			add(&involved, userID(u))
		}
	}
	add(&involved, userID(a.AssignedTo))
	for _, r := range a.Reactions {
		for _, fu := range r.FromUsers {
			add(&involved, userID(fu.From))
		}
	}
	a.MentionedUserIDs, a.InvolvedUserIDs = mentioned, involved
	a.SortKey = sortKey(a.LastUpdated, a.AnnotationID)
}

// involvedIn lists the users a comment counts for in users/data/get: its
// author, the users it mentions and the annotation's assignee.
func (a *Annotation) involvedIn(c Comment) []string {
	ids := []string{}
	for _, id := range append([]string{userID(c.From), userID(a.AssignedTo)}, userIDs(c.To)...) {
		if id != "" && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids
}

func userIDs(users []User) []string {
	out := make([]string, 0, len(users))
	for _, u := range users {
		out = append(out, userID(u))
	}
	return out
}

// knownUser returns the fullest user object the annotation holds for id,
// or {userId: id}.
func (a *Annotation) knownUser(id string) User {
	candidates := []User{a.From, a.AssignedTo}
	for _, c := range a.Comments {
		candidates = append(candidates, c.From)
		candidates = append(candidates, c.To...)
	}
	for _, u := range candidates {
		if userID(u) == id {
			return u
		}
	}
	return User{"userId": id}
}

// sortKey makes a string that sorts like (ms, id) for ms >= 0.
func sortKey(ms int64, id string) string {
	return fmt.Sprintf("%020d|%s", max(ms, 0), id)
}
