package httpapi

import (
	"encoding/json"
	"strings"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/svc-notify/internal/notify"
)

// addRequest is notifications/add. The v2-only fields are ignored on v1.
type addRequest struct {
	OrganizationID string   `json:"organizationId" validate:"required"`
	DocumentID     string   `json:"documentId" validate:"required"`
	ActionUser     *userDTO `json:"actionUser" validate:"required"`
	NotificationID string   `json:"notificationId"`
	// Have svc-identity create the organization and document when missing
	// (notify.EnsureScope).
	CreateOrganization bool `json:"createOrganization"`
	CreateDocument     bool `json:"createDocument"`
	// v2: notify only the recipients with document access (true is
	// refused on v1, see notification).
	VerifyPermissions bool             `json:"verifyUserPermissions"`
	HeadlineTemplate  string           `json:"displayHeadlineMessageTemplate"`
	HeadlineData      *headlineDataDTO `json:"displayHeadlineMessageTemplateData"`
	BodyMessage       string           `json:"displayBodyMessage"`
	NotifyUsers       []userDTO        `json:"notifyUsers" validate:"max=@notify.notifyUsers"`
	NotifyAll         *bool            `json:"notifyAll"`
	SourceData        object           `json:"notificationSourceData"`
	LocationID        string           `json:"locationId"`
	Location          *locationDTO     `json:"location"`

	// v2 only.
	ResolverUsed bool   `json:"isNotificationResolverUsed"`
	Source       string `json:"notificationSource" validate:"oneof=custom comment huddle crdt"`
	Context      object `json:"context"`
}

func (r addRequest) notification(v version) (notify.Notification, error) {
	// v1 has no such field. Ignoring it would notify people the caller
	// meant to leave out: refused, nothing stored, as it always was.
	if r.VerifyPermissions && v == v1 {
		return notify.Notification{}, api.Errorf(api.InvalidArgument,
			"field verifyUserPermissions is not supported on v1: use /v2/notifications/add to notify only the recipients with document access; omit it or send false")
	}
	n := notify.Notification{
		OrganizationID: r.OrganizationID, DocumentID: r.DocumentID, ID: r.NotificationID,
		LocationID: r.LocationID, ActionUser: r.ActionUser.user(),
		HeadlineTemplate: r.HeadlineTemplate, HeadlineData: r.HeadlineData.rawOf(),
		BodyMessage: r.BodyMessage, NotifyUsers: users(r.NotifyUsers),
		NotifyAll:  r.NotifyAll == nil || *r.NotifyAll, // the spec's default: the whole organization
		SourceData: json.RawMessage(r.SourceData),
	}
	if r.Location != nil {
		if n.LocationID != "" && n.LocationID != r.Location.ID {
			return notify.Notification{}, api.Errorf(api.InvalidArgument, "fields locationId and location.id differ")
		}
		n.LocationID, n.Location = r.Location.ID, r.Location.raw
	}
	if v == v2 {
		n.ResolverUsed, n.Source, n.Context = r.ResolverUsed, r.Source, json.RawMessage(r.Context)
	}
	return n, nil
}

// getRequest is notifications/get. Paging and order are v2 only.
type getRequest struct {
	OrganizationID  string   `json:"organizationId" validate:"required"`
	DocumentID      string   `json:"documentId"`
	LocationID      string   `json:"locationId"`
	UserID          string   `json:"userId"`
	Tab             string   `json:"tab" validate:"oneof=forYou all"`
	NotificationIDs []string `json:"notificationIds" validate:"max=@notify.getIds"`
	PageSize        *int     `json:"pageSize" validate:"min=1,max=1000"`
	PageToken       string   `json:"pageToken"`
	Order           string   `json:"order" validate:"oneof=asc desc"`
}

func (r getRequest) query(v version) (notify.GetQuery, error) {
	q := notify.GetQuery{
		Filter: notify.Filter{
			OrganizationID: r.OrganizationID, DocumentID: r.DocumentID, LocationID: r.LocationID,
			IDs: nonEmpty(r.NotificationIDs),
		},
		UserID: r.UserID, Tab: notify.Tab(r.Tab),
	}
	if v == v1 {
		return q, nil
	}
	if r.DocumentID == "" && r.UserID == "" {
		return q, api.Errorf(api.InvalidArgument, "give at least one of documentId, userId")
	}
	q.Paged, q.PageToken, q.Ascending = true, r.PageToken, r.Order == "asc"
	if r.PageSize != nil {
		q.PageSize = *r.PageSize
	}
	return q, nil
}

// updateRequest is notifications/update.
type updateRequest struct {
	OrganizationID string              `json:"organizationId" validate:"required"`
	DocumentID     string              `json:"documentId"`
	LocationID     string              `json:"locationId"`
	UserID         string              `json:"userId"`
	Notifications  notificationUpdates `json:"notifications" validate:"required,max=@notify.notifications"`
}

func (r updateRequest) filter() notify.Filter {
	return notify.Filter{OrganizationID: r.OrganizationID, DocumentID: r.DocumentID, LocationID: r.LocationID, RecipientID: r.UserID}
}

// notificationUpdates is the notifications of an update: an array, or one
// object ("Notification object(s)").
type notificationUpdates []notificationUpdate

func (u *notificationUpdates) UnmarshalJSON(b []byte) error {
	if trimmed := strings.TrimSpace(string(b)); strings.HasPrefix(trimmed, "{") {
		var one notificationUpdate
		if err := json.Unmarshal(b, &one); err != nil {
			return err
		}
		*u = notificationUpdates{one}
		return nil
	}
	return json.Unmarshal(b, (*[]notificationUpdate)(u))
}

// JSONShape: an array of updates (or one, which api.Decode checks the same
// way).
func (*notificationUpdates) JSONShape() any { return []notificationUpdate(nil) }

// notificationUpdate is one Notification (update input).
type notificationUpdate struct {
	ID               string           `json:"id" validate:"required"`
	ActionUser       *userDTO         `json:"actionUser"`
	HeadlineTemplate *string          `json:"displayHeadlineMessageTemplate"`
	HeadlineData     *headlineDataDTO `json:"displayHeadlineMessageTemplateData"`
	BodyMessage      *string          `json:"displayBodyMessage"`
	SourceData       object           `json:"notificationSourceData"`
	ReadByUserIDs    []string         `json:"readByUserIds" validate:"max=@notify.readByUserIds"`
	PersistRead      bool             `json:"persistReadForUsers"`
}

func (r updateRequest) changes() ([]notify.Change, error) {
	out := make([]notify.Change, 0, len(r.Notifications))
	for i, u := range r.Notifications {
		for j, id := range u.ReadByUserIDs {
			if id == "" {
				return nil, api.Errorf(api.InvalidArgument, "field notifications[%d].readByUserIds[%d] must not be empty", i, j)
			}
		}
		c := notify.Change{
			ID: u.ID, HeadlineTemplate: u.HeadlineTemplate, HeadlineData: u.HeadlineData.rawOf(),
			BodyMessage: u.BodyMessage, SourceData: json.RawMessage(u.SourceData),
			ReadBy: u.ReadByUserIDs, PersistRead: u.PersistRead,
		}
		if u.ActionUser != nil {
			user := u.ActionUser.user()
			c.ActionUser = &user
		}
		out = append(out, c)
	}
	return out, nil
}

// deleteRequest is notifications/delete.
type deleteRequest struct {
	OrganizationID  string   `json:"organizationId" validate:"required"`
	DocumentID      string   `json:"documentId"`
	LocationID      string   `json:"locationId"`
	UserID          string   `json:"userId"`
	NotificationIDs []string `json:"notificationIds" validate:"max=@notify.notifications"`
}

func (r deleteRequest) filter() notify.Filter {
	return notify.Filter{
		OrganizationID: r.OrganizationID, DocumentID: r.DocumentID, LocationID: r.LocationID,
		RecipientID: r.UserID, IDs: nonEmpty(r.NotificationIDs),
	}
}

// itemResult is one item of a batch write's result map.
type itemResult struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
}

func itemResults(outcomes map[string]notify.Outcome) map[string]itemResult {
	out := make(map[string]itemResult, len(outcomes))
	for id, o := range outcomes {
		out[id] = itemResult{Success: o.Success, Message: o.Message}
	}
	return out
}

// nonEmpty drops blank ids (they name nothing) and returns nil for none,
// so an empty list does not filter.
func nonEmpty(ids []string) []string {
	var out []string
	for _, id := range ids {
		if id != "" {
			out = append(out, id)
		}
	}
	return out
}
