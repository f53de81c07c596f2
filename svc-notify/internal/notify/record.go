package notify

import (
	"encoding/json"
	"maps"
)

// Record is a notification as the API returns it (notifications/get, the
// user-data export) and as events carry it. It lives here rather than in
// httpapi because the operations publish it too.
type Record struct {
	ID                                 string          `json:"id"`
	NotificationSource                 string          `json:"notificationSource"`
	NotificationSourceData             json.RawMessage `json:"notificationSourceData"`
	ActionUser                         json.RawMessage `json:"actionUser"`
	DisplayHeadlineMessageTemplate     string          `json:"displayHeadlineMessageTemplate,omitempty"`
	DisplayHeadlineMessageTemplateData json.RawMessage `json:"displayHeadlineMessageTemplateData,omitempty"`
	DisplayBodyMessage                 string          `json:"displayBodyMessage,omitempty"`
	Metadata                           Metadata        `json:"metadata"`
	NotifyUsers                        map[string]bool `json:"notifyUsers"`
	NotifyUsersByUserID                map[string]bool `json:"notifyUsersByUserId"`
	Timestamp                          int64           `json:"timestamp"`
	// IsRead is set when the record is read for a user.
	IsRead *bool `json:"isRead,omitempty"`
}

// SourceCustom is the notificationSource of notifications that name none.
const SourceCustom = "custom"

// Metadata places a record.
type Metadata struct {
	OrganizationID string `json:"organizationId"`
	DocumentID     string `json:"documentId"`
	LocationID     string `json:"locationId,omitempty"`
}

// Record renders n. With a non-empty forUser the record says whether that
// user has read it.
func (n Notification) Record(forUser string) Record {
	// We have no internal user hashes: both maps are keyed by user id.
	recipients := n.Recipients()
	byID := make(map[string]bool, len(recipients))
	for _, id := range recipients {
		byID[id] = true
	}
	r := Record{
		ID:                                 n.ID,
		NotificationSource:                 n.Source,
		NotificationSourceData:             n.SourceData,
		ActionUser:                         n.ActionUser.Raw,
		DisplayHeadlineMessageTemplate:     n.HeadlineTemplate,
		DisplayHeadlineMessageTemplateData: n.HeadlineData,
		DisplayBodyMessage:                 n.BodyMessage,
		Metadata:                           Metadata{OrganizationID: n.OrganizationID, DocumentID: n.DocumentID, LocationID: n.LocationID},
		NotifyUsers:                        byID,
		NotifyUsersByUserID:                maps.Clone(byID),
		Timestamp:                          n.Timestamp,
	}
	// Notifications added through the API without a source are "custom"
	// with empty source data, as the hosted product answers them.
	if r.NotificationSource == "" {
		r.NotificationSource = SourceCustom
	}
	if len(r.NotificationSourceData) == 0 || string(r.NotificationSourceData) == "null" {
		r.NotificationSourceData = json.RawMessage(`{}`)
	}
	if forUser != "" {
		read := n.IsReadBy(forUser)
		r.IsRead = &read
	}
	return r
}

// records renders ns for forUser.
func records(ns []Notification, forUser string) []Record {
	out := make([]Record, 0, len(ns))
	for _, n := range ns {
		out = append(out, n.Record(forUser))
	}
	return out
}
