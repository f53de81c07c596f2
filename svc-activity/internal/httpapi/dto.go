package httpapi

import (
	"encoding/json"

	"github.com/opencollab/backend/svc-activity/internal/activity"
)

// Request and reply shapes. JSON names are the contract (rest-interface.md,
// Activity log record; adjacent-operations.md §10). Free-form fields stay
// json.RawMessage so they are stored as sent.

type addRequest struct {
	OrganizationID string          `json:"organizationId" validate:"required"`
	DocumentID     string          `json:"documentId" validate:"required"`
	Activities     []activityInput `json:"activities" validate:"required,max=@activity.activities"`
}

type activityInput struct {
	ID                         string          `json:"id"`
	FeatureType                string          `json:"featureType" validate:"required,oneof=comment reaction recorder crdt custom"`
	ActionType                 string          `json:"actionType" validate:"required"`
	ActionUser                 json.RawMessage `json:"actionUser" validate:"required"`
	TargetEntityID             string          `json:"targetEntityId"`
	TargetSubEntityID          string          `json:"targetSubEntityId"`
	Changes                    json.RawMessage `json:"changes"`
	EntityData                 json.RawMessage `json:"entityData"`
	EntityTargetData           json.RawMessage `json:"entityTargetData"`
	DisplayMessageTemplate     string          `json:"displayMessageTemplate"`
	DisplayMessageTemplateData json.RawMessage `json:"displayMessageTemplateData"`
	ActionIcon                 string          `json:"actionIcon"`
	IsActivityResolverUsed     bool            `json:"isActivityResolverUsed"`
}

func (a activityInput) domain() activity.NewActivity {
	return activity.NewActivity{
		ID: a.ID, FeatureType: a.FeatureType, ActionType: a.ActionType, ActionUser: a.ActionUser,
		TargetEntityID: a.TargetEntityID, TargetSubEntityID: a.TargetSubEntityID,
		Changes: a.Changes, EntityData: a.EntityData, EntityTargetData: a.EntityTargetData,
		DisplayMessageTemplate: a.DisplayMessageTemplate, DisplayMessageTemplateData: a.DisplayMessageTemplateData,
		ActionIcon: a.ActionIcon, IsActivityResolverUsed: a.IsActivityResolverUsed,
	}
}

// addResponse is result.data of add: the spec's { success: true, message }.
type addResponse struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
}

type updateRequest struct {
	OrganizationID string       `json:"organizationId" validate:"required"`
	Activities     []patchInput `json:"activities" validate:"required,max=@activity.activities"`
}

type patchInput struct {
	ID                         string          `json:"id" validate:"required"`
	Changes                    json.RawMessage `json:"changes"`
	EntityData                 json.RawMessage `json:"entityData"`
	EntityTargetData           json.RawMessage `json:"entityTargetData"`
	DisplayMessageTemplate     *string         `json:"displayMessageTemplate"`
	DisplayMessageTemplateData json.RawMessage `json:"displayMessageTemplateData"`
	ActionIcon                 *string         `json:"actionIcon"`
}

func (p patchInput) domain() activity.Patch {
	return activity.Patch{
		ID: p.ID, Changes: p.Changes, EntityData: p.EntityData, EntityTargetData: p.EntityTargetData,
		DisplayMessageTemplate: p.DisplayMessageTemplate, DisplayMessageTemplateData: p.DisplayMessageTemplateData,
		ActionIcon: p.ActionIcon,
	}
}

type getRequest struct {
	OrganizationID string   `json:"organizationId" validate:"required"`
	DocumentID     string   `json:"documentId"`
	TargetEntityID string   `json:"targetEntityId"`
	UserID         string   `json:"userId"`
	FeatureTypes   []string `json:"featureTypes" validate:"max=@activity.featureTypes,oneof=comment reaction recorder crdt custom"`
	ActionTypes    []string `json:"actionTypes" validate:"max=@activity.actionTypes"`
	ActivityIDs    []string `json:"activityIds" validate:"max=@activity.ids"`
	StartTime      *int64   `json:"startTime" validate:"min=0"`
	EndTime        *int64   `json:"endTime" validate:"min=0"`
	Order          string   `json:"order" validate:"oneof=asc desc"`
	PageSize       *int     `json:"pageSize" validate:"min=1,max=1000"`
	PageToken      string   `json:"pageToken"`
}

func (r getRequest) domain() activity.Query {
	q := activity.Query{
		Filter: activity.Filter{
			OrganizationID: r.OrganizationID, DocumentID: r.DocumentID, TargetEntityID: r.TargetEntityID,
			UserID: r.UserID, FeatureTypes: r.FeatureTypes, ActionTypes: r.ActionTypes, IDs: r.ActivityIDs,
			StartTime: r.StartTime, EndTime: r.EndTime,
		},
		Desc:      r.Order != "asc",
		PageToken: r.PageToken,
	}
	if r.PageSize != nil {
		q.PageSize = *r.PageSize
	}
	return q
}

type deleteRequest struct {
	OrganizationID string   `json:"organizationId" validate:"required"`
	DocumentID     string   `json:"documentId"`
	TargetEntityID string   `json:"targetEntityId"`
	ActivityIDs    []string `json:"activityIds" validate:"max=@activity.ids"`
}
