package annotations

import (
	"context"
	"errors"
	"slices"
	"strings"
	"unicode/utf8"
)

// Reactions have no documented REST operation; these two complete the
// model (§7.3 ReactionAnnotation) so reactions can be created and removed:
//
//	POST /v2/commentannotations/reactions/add    → data {reactionId}
//	POST /v2/commentannotations/reactions/delete → data {reactionId, removed}
//
// A reaction is one icon on an annotation with the users who chose it.

// maxIconLength bounds an icon: an emoji or a name like HEART_FACE.
const maxIconLength = 64

// ReactionAddRequest adds user to the reaction with icon (creating it).
type ReactionAddRequest struct {
	OrganizationID string `json:"organizationId" validate:"required"`
	DocumentID     string `json:"documentId" validate:"required"`
	AnnotationID   string `json:"annotationId" validate:"required"`
	Icon           string `json:"icon" validate:"required"`
	User           User   `json:"user" validate:"required"`
}

// ReactionDeleteRequest removes userId from the reaction with icon.
type ReactionDeleteRequest struct {
	OrganizationID string `json:"organizationId" validate:"required"`
	DocumentID     string `json:"documentId" validate:"required"`
	AnnotationID   string `json:"annotationId" validate:"required"`
	Icon           string `json:"icon" validate:"required"`
	UserID         string `json:"userId" validate:"required"`
}

// ReactionResult is the data of both reaction operations. Removed is only
// meaningful for delete (false: the user had no such reaction).
type ReactionResult struct {
	ReactionID string `json:"reactionId,omitempty"`
	Removed    *bool  `json:"removed,omitempty"`
}

func checkIcon(icon string) error {
	if strings.TrimSpace(icon) == "" {
		return invalid("field icon is required")
	}
	if utf8.RuneCountInString(icon) > maxIconLength {
		return invalid("field icon must be at most %d characters", maxIconLength)
	}
	return nil
}

func (a *Annotation) reaction(icon string) *Reaction {
	for i := range a.Reactions {
		if a.Reactions[i].Icon == icon {
			return &a.Reactions[i]
		}
	}
	return nil
}

// AddReaction adds the user to the icon's reaction; reacting twice with
// the same icon changes nothing (and publishes nothing).
func (s *Service) AddReaction(ctx context.Context, ws string, req ReactionAddRequest) (ReactionResult, error) {
	if err := checkIcon(req.Icon); err != nil {
		return ReactionResult{}, err
	}
	if err := checkUser(req.User, "user", true); err != nil {
		return ReactionResult{}, err
	}
	uid := userID(req.User)
	var rid string
	a, err := s.mutate(ctx, Scope{ws, req.OrganizationID, req.DocumentID}, req.AnnotationID, func(a *Annotation) error {
		now := s.nowMs()
		r := a.reaction(req.Icon)
		if r == nil {
			a.Reactions = append(a.Reactions, Reaction{ReactionID: newID("rxn_"), Icon: req.Icon, CreatedAt: now})
			r = &a.Reactions[len(a.Reactions)-1]
		}
		rid = r.ReactionID
		if slices.ContainsFunc(r.FromUsers, func(fu ReactionUser) bool { return userID(fu.From) == uid }) {
			return errUnchanged
		}
		r.FromUsers = append(r.FromUsers, ReactionUser{From: normalizeUser(req.User), LastUpdated: now})
		r.LastUpdated = now
		a.touch(now)
		return nil
	})
	if errors.Is(err, errUnchanged) {
		return ReactionResult{ReactionID: rid}, nil
	}
	if err != nil {
		return ReactionResult{}, err
	}
	s.publishReaction(ctx, EventReactionAdd, a, a.reaction(req.Icon), req.User)
	return ReactionResult{ReactionID: rid}, nil
}

// DeleteReaction removes the user from the icon's reaction, and the
// reaction when nobody is left.
func (s *Service) DeleteReaction(ctx context.Context, ws string, req ReactionDeleteRequest) (ReactionResult, error) {
	if err := checkIcon(req.Icon); err != nil {
		return ReactionResult{}, err
	}
	var gone Reaction
	var actor User
	a, err := s.mutate(ctx, Scope{ws, req.OrganizationID, req.DocumentID}, req.AnnotationID, func(a *Annotation) error {
		gone, actor = Reaction{}, nil
		r := a.reaction(req.Icon)
		if r == nil {
			return errUnchanged
		}
		i := slices.IndexFunc(r.FromUsers, func(fu ReactionUser) bool { return userID(fu.From) == req.UserID })
		if i < 0 {
			gone = *r
			return errUnchanged
		}
		actor = r.FromUsers[i].From
		r.FromUsers = slices.Delete(slices.Clone(r.FromUsers), i, i+1)
		now := s.nowMs()
		r.LastUpdated = now
		gone = *r
		if len(r.FromUsers) == 0 {
			a.Reactions = slices.DeleteFunc(a.Reactions, func(x Reaction) bool { return x.Icon == req.Icon })
		}
		a.touch(now)
		return nil
	})
	removed := err == nil
	if err != nil && !errors.Is(err, errUnchanged) {
		return ReactionResult{}, err
	}
	if removed {
		s.publishReaction(ctx, EventReactionDelete, a, &gone, actor)
	}
	return ReactionResult{ReactionID: gone.ReactionID, Removed: &removed}, nil
}

func (s *Service) publishReaction(ctx context.Context, typ string, a *Annotation, r *Reaction, actor User) {
	events := s.batch()
	var target *ReactionView
	if r != nil {
		v := r.view(a.AnnotationID)
		target = &v
	}
	events.add(ctx, typ, a, EventData{TargetReaction: target, ActionUser: normalizeUser(actor)})
	events.publish(ctx)
}
