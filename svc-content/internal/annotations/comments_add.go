package annotations

import (
	"context"
	"slices"
)

// CommentsAddRequest is the body of /v2/commentannotations/comments/add
// (§7.8). createOrganization/createDocument and verifyUserPermissions:true
// act as for annotations add.
type CommentsAddRequest struct {
	OrganizationID        string         `json:"organizationId" validate:"required"`
	DocumentID            string         `json:"documentId" validate:"required"`
	AnnotationID          string         `json:"annotationId" validate:"required"`
	CreateOrganization    bool           `json:"createOrganization"`
	CreateDocument        bool           `json:"createDocument"`
	VerifyUserPermissions bool           `json:"verifyUserPermissions"`
	CommentData           []CommentInput `json:"commentData" validate:"required,max=@content.comments"`
}

// AddComments appends comments to an annotation and returns their ids.
func (s *Service) AddComments(ctx context.Context, ws string, req CommentsAddRequest) ([]int64, error) {
	if err := validateComments(req.CommentData, "commentData"); err != nil {
		return nil, err
	}
	sc := Scope{ws, req.OrganizationID, req.DocumentID}
	if err := s.resolveAgents(ctx, ws, req.CommentData); err != nil {
		return nil, err
	}
	if err := s.ensureScope(ctx, sc, req.CreateOrganization, req.CreateDocument); err != nil {
		return nil, err
	}
	if req.VerifyUserPermissions {
		if err := s.verifyAuthors(ctx, sc, req.CommentData); err != nil {
			return nil, err
		}
	}
	var ids []int64
	a, err := s.mutate(ctx, sc, req.AnnotationID, func(a *Annotation) error {
		var err error
		if ids, err = assignCommentIDs(a, req.CommentData); err != nil {
			return err
		}
		now := s.nowMs()
		for i, c := range req.CommentData {
			a.Comments = append(a.Comments, c.newComment(ids[i], now))
		}
		a.touch(now)
		return nil
	})
	if err != nil {
		return nil, err
	}
	events := s.batch()
	for i, in := range req.CommentData {
		c := a.comment(ids[i])
		events.add(ctx, EventCommentAdd, a, EventData{
			TargetComment: commentRef(*c), ActionUser: c.From,
			TriggerNotification: in.TriggerNotification, TriggerActivities: in.TriggerActivities,
		})
	}
	events.publish(ctx)
	return ids, nil
}

// CommentsGetRequest is the body of /v2/commentannotations/comments/get.
type CommentsGetRequest struct {
	OrganizationID string   `json:"organizationId" validate:"required"`
	DocumentID     string   `json:"documentId" validate:"required"`
	AnnotationID   string   `json:"annotationId" validate:"required"`
	UserIDs        []string `json:"userIds" validate:"max=@content.ids"`
	CommentIDs     []int64  `json:"commentIds" validate:"max=@content.ids"`
}

// GetComments returns the annotation's comments (by author when userIds is
// given). With commentIds, one entry per requested id in that order, nil
// when the annotation has no such comment (or it is not by those authors).
func (s *Service) GetComments(ctx context.Context, ws string, req CommentsGetRequest) ([]*CommentView, error) {
	a, err := s.load(ctx, Scope{ws, req.OrganizationID, req.DocumentID}, req.AnnotationID)
	if err != nil {
		return nil, err
	}
	byAuthor := func(c Comment) bool {
		return len(req.UserIDs) == 0 || slices.Contains(req.UserIDs, userID(c.From))
	}
	out := []*CommentView{}
	if len(req.CommentIDs) == 0 {
		for _, c := range a.Comments {
			if byAuthor(c) {
				out = append(out, commentRef(c))
			}
		}
		return out, nil
	}
	for _, id := range req.CommentIDs {
		if c := a.comment(id); c != nil && byAuthor(*c) {
			out = append(out, commentRef(*c))
		} else {
			out = append(out, nil)
		}
	}
	return out, nil
}
