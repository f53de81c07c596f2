package annotations

import (
	"context"
	"fmt"
)

// erasedUser stands where an erased user wrote in a thread others still
// need: no id, so no query, feed or export finds the user again.
func erasedUser() User { return User{"name": "Deleted user"} }

// EraseUser removes one user from the workspace's comment threads (GDPR
// erasure): a thread only they wrote in is deleted; elsewhere their
// comments are redacted (text, HTML, attachments, author), their
// reactions and mentions removed, and they stop being assignee or
// resolver. Every annotation goes through mutate, so the user feed follows;
// a run cut short is finished by the next one. It returns how many
// annotations changed.
func (s *Service) EraseUser(ctx context.Context, ws, userID string) (int, error) {
	if ws == "" || userID == "" {
		return 0, invalid("workspaceId and userId are required")
	}
	found, err := s.annotations.Authors(ctx, Query{WorkspaceID: ws, InvolvedUserID: userID})
	if err != nil {
		return 0, fmt.Errorf("find the user's annotations: %w", err)
	}
	for i := range found {
		a := &found[i]
		if onlyAuthor(a, userID) {
			if _, err := s.Delete(ctx, ws, DeleteRequest{OrganizationID: a.OrganizationID, DocumentID: a.DocumentID, AnnotationIDs: []string{a.AnnotationID}}); err != nil {
				return i, err
			}
			continue
		}
		sc := Scope{ws, a.OrganizationID, a.DocumentID}
		if _, err := s.mutate(ctx, sc, a.AnnotationID, func(a *Annotation) error { return redact(a, userID) }); err != nil && err != errUnchanged {
			return i, err
		}
	}
	return len(found), nil
}

// onlyAuthor reports whether every comment of a is id's.
func onlyAuthor(a *Annotation, id string) bool {
	for _, c := range a.Comments {
		if userID(c.From) != id {
			return false
		}
	}
	return len(a.Comments) > 0
}

// redact removes userID from a (see EraseUser).
func redact(a *Annotation, id string) error {
	if userID(a.From) == id {
		a.From = erasedUser()
	}
	if userID(a.AssignedTo) == id {
		a.AssignedTo = nil
	}
	if a.ResolvedByUserID == id || userID(a.ResolvedByUser) == id {
		a.ResolvedByUserID, a.ResolvedByUser = "", nil
	}
	if a.StatusUpdatedByUserID == id {
		a.StatusUpdatedByUserID = ""
	}
	for i := range a.Comments {
		c := &a.Comments[i]
		if userID(c.From) == id {
			c.From, c.CommentText, c.CommentHTML = erasedUser(), "", ""
			c.IsCommentTextAvailable, c.Attachments, c.TaggedUserContacts, c.Context = false, nil, nil, nil
		}
		kept := c.To[:0]
		for _, u := range c.To {
			if userID(u) != id {
				kept = append(kept, u)
			}
		}
		c.To = kept
	}
	reactions := a.Reactions[:0]
	for _, r := range a.Reactions {
		users := r.FromUsers[:0]
		for _, fu := range r.FromUsers {
			if userID(fu.From) != id {
				users = append(users, fu)
			}
		}
		if r.FromUsers = users; len(users) > 0 {
			reactions = append(reactions, r)
		}
	}
	a.Reactions = reactions
	return nil
}

// EraseUsers erases each user's data in turn (the erasure job's call).
func (s *Service) EraseUsers(ctx context.Context, ws string, userIDs []string) (int64, error) {
	var total int64
	for _, u := range userIDs {
		n, err := s.EraseUser(ctx, ws, u)
		if err != nil {
			return total, err
		}
		total += int64(n)
	}
	return total, nil
}
