package store

import (
	"encoding/json"

	"github.com/opencollab/backend/svc-activity/internal/activity"
)

// activityDoc is a stored record. The JSON-text fields are described in
// the package comment; "" means absent.
type activityDoc struct {
	// Key is activityKey(workspaceId, id), so a record can be looked up by
	// exact _id (see Mongo.pointReads).
	Key                        string `bson:"_id,omitempty"`
	WorkspaceID                string `bson:"workspaceId"`
	OrganizationID             string `bson:"organizationId"`
	DocumentID                 string `bson:"documentId"`
	ID                         string `bson:"id"`
	FeatureType                string `bson:"featureType"`
	ActionType                 string `bson:"actionType"`
	ActionUserID               string `bson:"actionUserId"`
	ActionUser                 string `bson:"actionUser"`
	TargetEntityID             string `bson:"targetEntityId,omitempty"`
	TargetSubEntityID          string `bson:"targetSubEntityId,omitempty"`
	Changes                    string `bson:"changes,omitempty"`
	EntityData                 string `bson:"entityData,omitempty"`
	EntityTargetData           string `bson:"entityTargetData,omitempty"`
	DisplayMessageTemplate     string `bson:"displayMessageTemplate,omitempty"`
	DisplayMessageTemplateData string `bson:"displayMessageTemplateData,omitempty"`
	ActionIcon                 string `bson:"actionIcon,omitempty"`
	IsActivityResolverUsed     bool   `bson:"isActivityResolverUsed"`
	Timestamp                  int64  `bson:"timestamp"`
	Immutable                  bool   `bson:"immutable"`
}

func newDoc(ws string, r activity.Record) activityDoc {
	return activityDoc{
		Key: activityKey(ws, r.ID), WorkspaceID: ws, OrganizationID: r.OrganizationID, DocumentID: r.DocumentID, ID: r.ID,
		FeatureType: r.FeatureType, ActionType: r.ActionType,
		ActionUserID: r.ActionUserID, ActionUser: string(r.ActionUser),
		TargetEntityID: r.TargetEntityID, TargetSubEntityID: r.TargetSubEntityID,
		Changes: string(r.Changes), EntityData: string(r.EntityData), EntityTargetData: string(r.EntityTargetData),
		DisplayMessageTemplate: r.DisplayMessageTemplate, DisplayMessageTemplateData: string(r.DisplayMessageTemplateData),
		ActionIcon: r.ActionIcon, IsActivityResolverUsed: r.IsActivityResolverUsed,
		Timestamp: r.Timestamp, Immutable: r.Immutable,
	}
}

func (d activityDoc) record() activity.Record {
	return activity.Record{
		OrganizationID: d.OrganizationID, DocumentID: d.DocumentID, ID: d.ID,
		FeatureType: d.FeatureType, ActionType: d.ActionType,
		ActionUserID: d.ActionUserID, ActionUser: rawJSON(d.ActionUser),
		TargetEntityID: d.TargetEntityID, TargetSubEntityID: d.TargetSubEntityID,
		Changes: rawJSON(d.Changes), EntityData: rawJSON(d.EntityData), EntityTargetData: rawJSON(d.EntityTargetData),
		DisplayMessageTemplate: d.DisplayMessageTemplate, DisplayMessageTemplateData: rawJSON(d.DisplayMessageTemplateData),
		ActionIcon: d.ActionIcon, IsActivityResolverUsed: d.IsActivityResolverUsed,
		Timestamp: d.Timestamp, Immutable: d.Immutable,
	}
}

func rawJSON(s string) json.RawMessage {
	if s == "" {
		return nil
	}
	return json.RawMessage(s)
}

// activityKey is a record's _id: JSON text of the pair, so no choice of
// ids can make two pairs collide.
func activityKey(ws, id string) string {
	b, _ := json.Marshal([2]string{ws, id})
	return string(b)
}
