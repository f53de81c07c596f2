// Package activityevent is the contract of svc-activity's events: the
// source whose stream they travel on, their types, and the record each
// carries as its data, which is also what /v2/activities/get returns.
// svc-activity publishes them; svc-memory learns judgments from them;
// svc-workspace delivers them to webhook endpoints as they are.
package activityevent

import "encoding/json"

// Source is the publisher's name; the events travel on
// events.Stream(Source).
const Source = "activity"

// The event types, one per operation that changes records.
const (
	Add    = "activity.add"
	Update = "activity.update"
	Delete = "activity.delete"
)

// Record is an activity log record on the wire. The free-form fields hold
// JSON exactly as the client sent it.
type Record struct {
	ID                         string          `json:"id"`
	FeatureType                string          `json:"featureType"`
	ActionType                 string          `json:"actionType"`
	ActionUser                 json.RawMessage `json:"actionUser"`
	TargetEntityID             string          `json:"targetEntityId,omitempty"`
	TargetSubEntityID          string          `json:"targetSubEntityId,omitempty"`
	Changes                    json.RawMessage `json:"changes,omitempty"`
	EntityData                 json.RawMessage `json:"entityData,omitempty"`
	EntityTargetData           json.RawMessage `json:"entityTargetData,omitempty"`
	DisplayMessageTemplate     string          `json:"displayMessageTemplate,omitempty"`
	DisplayMessageTemplateData json.RawMessage `json:"displayMessageTemplateData,omitempty"`
	ActionIcon                 string          `json:"actionIcon,omitempty"`
	Metadata                   Metadata        `json:"metadata"`
	Timestamp                  int64           `json:"timestamp"`
	Immutable                  bool            `json:"immutable"`
	IsActivityResolverUsed     bool            `json:"isActivityResolverUsed"`
}

// Metadata locates a record. The hosted product also returns the API key;
// svc-activity never stores it, so it is omitted.
type Metadata struct {
	DocumentID     string `json:"documentId"`
	OrganizationID string `json:"organizationId"`
}
