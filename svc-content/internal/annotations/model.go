package annotations

import (
	"fmt"
	"slices"
)

// User is a user object as the caller sent it (userId plus any profile
// keys); it is stored and returned as is.
type User = map[string]any

// Annotation is a comment annotation (internal/store keeps it as an
// annotationDoc).
type Annotation struct {
	WorkspaceID           string
	OrganizationID        string
	DocumentID            string
	AnnotationID          string
	AnnotationNumber      int64
	Type                  string
	CommentType           string
	SourceType            string
	Location              map[string]any
	TargetElement         map[string]any
	Status                map[string]any
	Priority              map[string]any
	AssignedTo            User
	From                  User
	Comments              []Comment
	Reactions             []Reaction
	InvolvedUserIDs       []string
	MentionedUserIDs      []string
	ResolvedByUserID      string
	ResolvedByUser        User
	StatusUpdatedByUserID string
	Context               map[string]any
	VisibilityConfig      map[string]any
	Suggestion            map[string]any
	// Agent is the root comment's agent block, on an agent annotation
	// (agent.go); AgentPage its url as the agentUrls filter compares it.
	Agent       map[string]any
	AgentPage   string
	CreatedAt   int64
	LastUpdated int64

	// LastCommentID is the highest commentId ever used here, so generated
	// ids keep increasing even after deletions.
	LastCommentID int64
	// Version is bumped by every write; writes replace on the version read.
	Version int64
	// IndexedRows are the keys of the annotation's rows in the user feed
	// (feed.go), as of this version.
	IndexedRows []string
}

// Comment is one comment of an annotation.
type Comment struct {
	CommentID              int64
	Type                   string
	Status                 string
	CommentText            string
	CommentHTML            string
	From                   User
	To                     []User
	TaggedUserContacts     []map[string]any
	Attachments            []map[string]any
	Context                map[string]any
	IsCommentTextAvailable bool
	IsCommentResolverUsed  bool
	// SourceType is "agent" for an agent's comment (Agent is its block),
	// "" for one written through the API.
	SourceType  string
	Agent       map[string]any
	CreatedAt   int64
	LastUpdated int64
}

// Reaction is one icon on an annotation with the users who chose it (the
// spec's ReactionAnnotation).
type Reaction struct {
	ReactionID  string
	Icon        string
	FromUsers   []ReactionUser
	CreatedAt   int64
	LastUpdated int64
}

// ReactionUser is one user's reaction and when it was made.
type ReactionUser struct {
	From        User
	LastUpdated int64
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

// Cursor is a's position in the order of get pages: lastUpdated, then
// annotationId.
func (a *Annotation) Cursor() string { return sortKey(a.LastUpdated, a.AnnotationID) }

// sortKey makes a string that sorts like (ms, id) for ms >= 0.
func sortKey(ms int64, id string) string {
	return fmt.Sprintf("%020d|%s", max(ms, 0), id)
}
