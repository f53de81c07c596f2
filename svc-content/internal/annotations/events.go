package annotations

import (
	"context"

	"github.com/opencollab/backend/pkg/events"
)

// EventSource is the source of comment events, as §14 names it.
const EventSource = "comment"

// Event types this package publishes.
const (
	EventAnnotationAdd    = "comment_annotation.add"
	EventAnnotationUpdate = "comment_annotation.update"
	EventAnnotationDelete = "comment_annotation.delete"
	EventStatusChange     = "comment_annotation.status_change"
	EventCommentAdd       = "comment.add"
	EventCommentUpdate    = "comment.update"
	EventCommentDelete    = "comment.delete"
	EventReactionAdd      = "comment.reaction_add"
	EventReactionDelete   = "comment.reaction_delete"
)

// EventData is the data of every comment event (§14, source comment).
type EventData struct {
	CommentAnnotation   AnnotationView `json:"commentAnnotation"`
	TargetComment       *CommentView   `json:"targetComment,omitempty"`
	TargetReaction      *ReactionView  `json:"targetReaction,omitempty"`
	ActionUser          User           `json:"actionUser,omitempty"`
	OldStatus           map[string]any `json:"oldStatus,omitempty"`
	NewStatus           map[string]any `json:"newStatus,omitempty"`
	Metadata            map[string]any `json:"metadata"`
	TriggerNotification bool           `json:"triggerNotification,omitempty"`
	TriggerActivities   bool           `json:"triggerActivities,omitempty"`
}

// newEvent builds the event of one accepted change to a.
func newEvent(typ string, a *Annotation, d EventData) (events.Event, error) {
	d.CommentAnnotation = a.View()
	d.Metadata = d.CommentAnnotation.Metadata
	return events.New(typ, EventSource, a.WorkspaceID, a.OrganizationID, a.DocumentID, d)
}

// eventBatch collects the events of one request and publishes them once
// the writes are done.
type eventBatch struct {
	s      *Service
	events []events.Event
}

func (s *Service) batch() *eventBatch { return &eventBatch{s: s} }

func (b *eventBatch) add(ctx context.Context, typ string, a *Annotation, d EventData) {
	e, err := newEvent(typ, a, d)
	if err != nil {
		b.s.logger.ErrorContext(ctx, "annotations: build event", "type", typ, "error", err)
		return
	}
	b.events = append(b.events, e)
}

// publish sends the events. The changes are already stored, so a failure
// (Redis and the outbox both down) is logged rather than reported as a
// failed request the caller would retry.
func (b *eventBatch) publish(ctx context.Context) {
	if len(b.events) == 0 || b.s.pub == nil {
		return
	}
	if err := b.s.pub.Publish(ctx, b.events...); err != nil {
		b.s.logger.ErrorContext(ctx, "annotations: events lost", "count", len(b.events), "error", err)
	}
}

func commentRef(c Comment) *CommentView {
	v := c.View()
	return &v
}
