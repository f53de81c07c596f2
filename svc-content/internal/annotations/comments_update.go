package annotations

import (
	"context"
	"errors"
	"slices"
	"strconv"
)

// CommentItemResult is a per-comment result: id is the numeric commentId.
type CommentItemResult struct {
	Success bool   `json:"success"`
	ID      int64  `json:"id"`
	Message string `json:"message"`
}

// CommentsUpdateRequest is the body of /v2/commentannotations/comments/update.
type CommentsUpdateRequest struct {
	OrganizationID string         `json:"organizationId" validate:"required"`
	DocumentID     string         `json:"documentId" validate:"required"`
	AnnotationID   string         `json:"annotationId" validate:"required"`
	CommentIDs     []int64        `json:"commentIds" validate:"required,max=@content.ids"`
	UpdatedData    *CommentUpdate `json:"updatedData" validate:"required"`
}

// CommentUpdate is updatedData of comments/update; absent fields keep.
type CommentUpdate struct {
	CommentText            *string          `json:"commentText"`
	CommentHTML            *string          `json:"commentHtml"`
	Context                map[string]any   `json:"context"`
	IsCommentResolverUsed  *bool            `json:"isCommentResolverUsed"`
	IsCommentTextAvailable *bool            `json:"isCommentTextAvailable"`
	From                   User             `json:"from"`
	TaggedUserContacts     []map[string]any `json:"taggedUserContacts" validate:"max=@content.users"`
	Attachments            []map[string]any `json:"attachments" validate:"max=@content.users"`
}

func (u *CommentUpdate) validate() error {
	if u == nil || (u.CommentText == nil && u.CommentHTML == nil && u.Context == nil && u.IsCommentResolverUsed == nil &&
		u.IsCommentTextAvailable == nil && u.From == nil && u.TaggedUserContacts == nil && u.Attachments == nil) {
		return invalid("field updatedData has nothing to update")
	}
	if err := checkUser(u.From, "updatedData.from", false); err != nil {
		return err
	}
	if err := checkTaggedContacts(u.TaggedUserContacts, "updatedData.taggedUserContacts"); err != nil {
		return err
	}
	return checkAttachments(u.Attachments, "updatedData.attachments")
}

func (u *CommentUpdate) apply(c *Comment, nowMs int64) {
	if u.CommentText != nil {
		c.CommentText = *u.CommentText
	}
	if u.CommentHTML != nil {
		c.CommentHTML = *u.CommentHTML
	}
	if u.Context != nil {
		c.Context = u.Context
	}
	if u.IsCommentResolverUsed != nil {
		c.IsCommentResolverUsed = *u.IsCommentResolverUsed
	}
	if u.IsCommentTextAvailable != nil {
		c.IsCommentTextAvailable = *u.IsCommentTextAvailable
	}
	if u.From != nil {
		c.From = normalizeUser(u.From)
	}
	if u.TaggedUserContacts != nil {
		c.TaggedUserContacts = u.TaggedUserContacts
	}
	if u.Attachments != nil {
		c.Attachments = u.Attachments
	}
	c.To = mentions(c.CommentText, c.CommentHTML, c.TaggedUserContacts)
	c.Status, c.LastUpdated = "updated", nowMs
}

// UpdateComments changes the given comments of one annotation in one write.
func (s *Service) UpdateComments(ctx context.Context, ws string, req CommentsUpdateRequest) (map[string]CommentItemResult, error) {
	if len(req.CommentIDs) == 0 {
		return nil, invalid("field commentIds is required")
	}
	if err := req.UpdatedData.validate(); err != nil {
		return nil, err
	}
	var changed []int64
	a, err := s.mutate(ctx, Scope{ws, req.OrganizationID, req.DocumentID}, req.AnnotationID, func(a *Annotation) error {
		changed = nil
		now := s.nowMs()
		for _, id := range req.CommentIDs {
			if c := a.comment(id); c != nil && !slices.Contains(changed, id) {
				req.UpdatedData.apply(c, now)
				changed = append(changed, id)
			}
		}
		if len(changed) == 0 {
			return errUnchanged
		}
		a.touch(now)
		return nil
	})
	if err != nil && !errors.Is(err, errUnchanged) {
		return nil, err
	}
	events := s.batch()
	for _, id := range changed {
		c := a.comment(id)
		events.add(ctx, EventCommentUpdate, a, EventData{TargetComment: commentRef(*c), ActionUser: c.From})
	}
	events.publish(ctx)
	return commentResults(req.CommentIDs, changed, "Comment updated."), nil
}

// CommentsDeleteRequest is the body of /v2/commentannotations/comments/delete;
// without commentIds every comment of the annotation is deleted.
type CommentsDeleteRequest struct {
	OrganizationID string  `json:"organizationId" validate:"required"`
	DocumentID     string  `json:"documentId" validate:"required"`
	AnnotationID   string  `json:"annotationId" validate:"required"`
	CommentIDs     []int64 `json:"commentIds" validate:"max=@content.ids"`
}

// DeleteComments removes comments of one annotation in one write.
func (s *Service) DeleteComments(ctx context.Context, ws string, req CommentsDeleteRequest) (map[string]CommentItemResult, error) {
	var removed []Comment
	a, err := s.mutate(ctx, Scope{ws, req.OrganizationID, req.DocumentID}, req.AnnotationID, func(a *Annotation) error {
		removed = nil
		kept := a.Comments[:0:0]
		for _, c := range a.Comments {
			if len(req.CommentIDs) == 0 || slices.Contains(req.CommentIDs, c.CommentID) {
				removed = append(removed, c)
			} else {
				kept = append(kept, c)
			}
		}
		if len(removed) == 0 {
			return errUnchanged
		}
		a.Comments = kept
		a.touch(s.nowMs())
		return nil
	})
	if err != nil && !errors.Is(err, errUnchanged) {
		return nil, err
	}
	events := s.batch()
	ids := make([]int64, len(removed))
	for i, c := range removed {
		ids[i] = c.CommentID
		events.add(ctx, EventCommentDelete, a, EventData{TargetComment: commentRef(c)})
	}
	events.publish(ctx)
	requested := req.CommentIDs
	if len(requested) == 0 {
		requested = ids
	}
	return commentResults(requested, ids, "Comment deleted."), nil
}

// commentResults maps each requested commentId to its result.
func commentResults(requested, done []int64, message string) map[string]CommentItemResult {
	out := make(map[string]CommentItemResult, len(requested))
	for _, id := range requested {
		r := CommentItemResult{ID: id, Message: "Comment not found."}
		if slices.Contains(done, id) {
			r.Success, r.Message = true, message
		}
		out[strconv.FormatInt(id, 10)] = r
	}
	return out
}
