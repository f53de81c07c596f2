package delivery

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/opencollab/backend/pkg/events"
)

// body is the default delivered body (spec §14).
type body struct {
	Event      string          `json:"event"`
	ActionType string          `json:"actionType"`
	Source     string          `json:"source"`
	Data       json.RawMessage `json:"data"`
	WebhookID  string          `json:"webhookId"`
	Platform   string          `json:"platform"`
}

// platform is what the samples of §14 send.
const platform = "sdk"

// buildBody makes the default body of event e for message messageID.
func buildBody(e events.Event, messageID string) ([]byte, error) {
	data, err := bodyData(e)
	if err != nil {
		return nil, err
	}
	src, action := sourceAndAction(e.Type)
	return json.Marshal(body{
		Event: e.Type, ActionType: action, Source: src, Data: data, WebhookID: messageID, Platform: platform,
	})
}

// sourceAndAction splits an event type: "comment_annotation.status_change"
// is source "comment" (§14 groups threads and comments under it), action
// "statusChange"; "crdt.update_data" is "crdt", "updateData".
func sourceAndAction(typ string) (source, action string) {
	prefix, suffix, _ := strings.Cut(typ, ".")
	source = prefix
	if prefix == "comment_annotation" {
		source = "comment"
	}
	return source, camel(suffix)
}

// camel turns snake_case into camelCase.
func camel(s string) string {
	parts := strings.Split(s, "_")
	for i := 1; i < len(parts); i++ {
		if p := parts[i]; p != "" {
			parts[i] = strings.ToUpper(p[:1]) + p[1:]
		}
	}
	return strings.Join(parts, "")
}

// bodyData is the data of the body. Comment events already carry the §14
// shape and the other sources their record; CRDT events carry the CRDT
// record, which §14 puts under crdtData next to actionUser and metadata.
func bodyData(e events.Event) (json.RawMessage, error) {
	data := e.Data
	if len(data) == 0 || string(data) == "null" {
		data = json.RawMessage("{}")
	}
	if !strings.HasPrefix(e.Type, "crdt.") {
		return data, nil
	}
	var rec struct {
		LastUpdatedBy *string `json:"lastUpdatedBy"`
	}
	_ = json.Unmarshal(data, &rec) // only to name the acting user
	wrapped := map[string]any{
		"crdtData": data,
		"metadata": map[string]any{
			"organization": map[string]string{"organizationId": e.OrganizationID},
			"document":     map[string]string{"documentId": e.DocumentID},
		},
	}
	if rec.LastUpdatedBy != nil {
		wrapped["actionUser"] = map[string]string{"userId": *rec.LastUpdatedBy}
	}
	out, err := json.Marshal(wrapped)
	if err != nil {
		return nil, fmt.Errorf("build crdt data: %w", err)
	}
	return out, nil
}
