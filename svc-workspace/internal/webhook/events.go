package webhook

import (
	"maps"
	"slices"
)

// eventTypes are the event types endpoints may filter on and email
// triggers may name: those of the spec (§14) and those our services
// publish (pkg/events).
var eventTypes = map[string]bool{
	// Threads.
	"comment_annotation.add": true, "comment_annotation.assign": true, "comment_annotation.status_change": true,
	"comment_annotation.priority_change": true, "comment_annotation.custom_list_change": true,
	"comment_annotation.subscribe": true, "comment_annotation.unsubscribe": true,
	"comment_annotation.accept": true, "comment_annotation.reject": true, "comment_annotation.approve": true,
	"comment_annotation.suggestion_accept": true, "comment_annotation.suggestion_reject": true,
	"comment_annotation.update": true, "comment_annotation.delete": true,
	// Comments.
	"comment.add": true, "comment.update": true, "comment.delete": true,
	"comment.reaction_add": true, "comment.reaction_delete": true,
	// Huddle, CRDT, recorder, delivery.
	"huddle.create": true, "huddle.join": true,
	"crdt.add_data": true, "crdt.update_data": true,
	"recorder.done":             true,
	"message.attempt.exhausted": true,
	// Activity logs, notifications, document migration.
	"activity.add": true, "activity.update": true, "activity.delete": true,
	"notification.add": true, "notification.update": true, "notification.delete": true,
	"migration.completed": true, "migration.failed": true,
}

// EventTypes lists every known event type, sorted.
func EventTypes() []string { return slices.Sorted(maps.Keys(eventTypes)) }

// IsEventType reports whether t is a known event type.
func IsEventType(t string) bool { return eventTypes[t] }

// defaultTriggers are switched on by the first enable of the email service
// (§11: the standard comment triggers and every huddle trigger).
var defaultTriggers = []string{
	"comment_annotation.add",
	"comment_annotation.assign",
	"comment_annotation.status_change",
	"comment_annotation.priority_change",
	"comment.add",
	"huddle.create",
	"huddle.join",
}
