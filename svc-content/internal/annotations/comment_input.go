package annotations

import (
	"fmt"
	"regexp"
	"slices"
)

// CommentInput is a commentData item of annotation add and comments/add.
type CommentInput struct {
	CommentID              *int64           `json:"commentId" validate:"min=1"`
	CommentText            string           `json:"commentText"`
	CommentHTML            string           `json:"commentHtml"`
	From                   User             `json:"from" validate:"required"`
	Context                map[string]any   `json:"context"`
	IsCommentResolverUsed  bool             `json:"isCommentResolverUsed"`
	IsCommentTextAvailable *bool            `json:"isCommentTextAvailable"`
	TriggerNotification    bool             `json:"triggerNotification"`
	TriggerActivities      bool             `json:"triggerActivities"`
	CreatedAt              *int64           `json:"createdAt"`
	LastUpdated            *int64           `json:"lastUpdated"`
	TaggedUserContacts     []map[string]any `json:"taggedUserContacts" validate:"max=@content.users"`
	Attachments            []map[string]any `json:"attachments" validate:"max=@content.users"`
	Agent                  map[string]any   `json:"agent"`
}

// validateComments checks commentData items and that caller commentIds are
// unique among them.
func validateComments(items []CommentInput, path string) error {
	if len(items) == 0 {
		return invalid("field %s is required", path)
	}
	var ids []int64
	for i, c := range items {
		p := fmt.Sprintf("%s[%d]", path, i)
		if err := c.validate(p); err != nil {
			return err
		}
		if c.CommentID != nil {
			if slices.Contains(ids, *c.CommentID) {
				return invalid("field %s.commentId %d appears twice", p, *c.CommentID)
			}
			ids = append(ids, *c.CommentID)
		}
	}
	return nil
}

func (c CommentInput) validate(path string) error {
	if c.CommentID != nil && *c.CommentID < 1 {
		return invalid("field %s.commentId must be at least 1", path)
	}
	if err := checkUser(c.From, path+".from", true); err != nil {
		return err
	}
	if err := checkAgent(c.Agent, path+".agent"); err != nil {
		return err
	}
	if err := checkTaggedContacts(c.TaggedUserContacts, path+".taggedUserContacts"); err != nil {
		return err
	}
	if err := checkAttachments(c.Attachments, path+".attachments"); err != nil {
		return err
	}
	return checkTimes(path+".", map[string]*int64{"createdAt": c.CreatedAt, "lastUpdated": c.LastUpdated})
}

// newComment builds the comment a commentData item adds, with commentId id.
func (c CommentInput) newComment(id, nowMs int64) Comment {
	created := nowMs
	if c.CreatedAt != nil {
		created = *c.CreatedAt
	}
	updated := created
	if c.LastUpdated != nil {
		updated = *c.LastUpdated
	} else if c.CreatedAt != nil {
		updated = nowMs
	}
	textAvailable := true
	if c.IsCommentTextAvailable != nil {
		textAvailable = *c.IsCommentTextAvailable
	}
	out := Comment{
		CommentID: id, Type: "text", Status: "added",
		CommentText: c.CommentText, CommentHTML: c.CommentHTML,
		From: normalizeUser(c.From), TaggedUserContacts: c.TaggedUserContacts, Attachments: c.Attachments,
		Context: c.Context, IsCommentTextAvailable: textAvailable, IsCommentResolverUsed: c.IsCommentResolverUsed,
		CreatedAt: created, LastUpdated: updated,
	}
	if c.Agent != nil {
		out.SourceType, out.Agent = sourceAgent, c.Agent
	}
	out.To = mentions(out.CommentText, out.CommentHTML, out.TaggedUserContacts)
	return out
}

// assignCommentIDs returns the commentId of each item: the caller's, or the
// next unused one after the highest id the annotation has ever used. It
// refuses ids the annotation already has.
func assignCommentIDs(a *Annotation, items []CommentInput) ([]int64, error) {
	ids := make([]int64, len(items))
	taken := map[int64]bool{}
	highest := a.LastCommentID
	for i, c := range items {
		if c.CommentID == nil {
			continue
		}
		if a.comment(*c.CommentID) != nil {
			return nil, invalid("field commentData[%d].commentId %d already exists in annotation %s", i, *c.CommentID, a.AnnotationID)
		}
		ids[i], taken[*c.CommentID] = *c.CommentID, true
		highest = max(highest, *c.CommentID)
	}
	// Generated ids follow every id before them in the request and skip
	// the ones callers chose, so they increase in request order.
	next := a.LastCommentID
	for i := range ids {
		if ids[i] != 0 {
			next = max(next, ids[i])
			continue
		}
		for next++; taken[next] || a.comment(next) != nil; next++ {
		}
		ids[i] = next
	}
	a.LastCommentID = max(highest, next)
	return ids, nil
}

// mentionPattern finds {{userId}} mentions in comment text and HTML.
var mentionPattern = regexp.MustCompile(`\{\{([^{}\s]+)\}\}`)

// mentions returns the users a comment mentions: every {{userId}} in its
// text or HTML and every tagged contact, with the contact's profile when
// one is given.
func mentions(text, html string, tagged []map[string]any) []User {
	var ids []string
	for _, s := range []string{text, html} {
		for _, m := range mentionPattern.FindAllStringSubmatch(s, -1) {
			if !slices.Contains(ids, m[1]) {
				ids = append(ids, m[1])
			}
		}
	}
	profiles := map[string]User{}
	for _, tc := range tagged {
		id, _ := tc["userId"].(string)
		if contact, ok := tc["contact"].(map[string]any); ok {
			profiles[id] = contact
		}
		if id != "" && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	out := make([]User, 0, len(ids))
	for _, id := range ids {
		u := User{"userId": id}
		for k, v := range profiles[id] {
			u[k] = v
		}
		u["userId"] = id
		out = append(out, u)
	}
	return out
}
