package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-notify/internal/notify"
)

func handleAdd(svc *notify.Service, v version) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req addRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		n, err := req.notification(v)
		if err != nil {
			return nil, err
		}
		if err := svc.EnsureScope(c.Request.Context(), workspace(c), n, req.CreateOrganization, req.CreateDocument); err != nil {
			return nil, err
		}
		if req.VerifyPermissions {
			return addVerified(c, svc, n)
		}
		if _, err := svc.Add(c.Request.Context(), workspace(c), n); err != nil {
			return nil, err
		}
		return api.OK("Notification added.", addResponse{Success: true, Message: "Notification added."}), nil
	})
}

// addVerified adds n for its recipients with document access. An add that
// leaves nobody stores nothing and says so with success: false in a
// success envelope, as batch items that were not done do: the request was
// valid, its recipients just have no access.
func addVerified(c *gin.Context, svc *notify.Service, n notify.Notification) (*api.Result, error) {
	out, err := svc.AddVerified(c.Request.Context(), workspace(c), n)
	if err != nil {
		return nil, err
	}
	msg := out.Message(n.DocumentID)
	if !out.Stored {
		return api.OK("No notification added.", addResponse{Success: false, Message: msg}), nil
	}
	return api.OK("Notification added.", addResponse{Success: true, Message: msg}), nil
}

type addResponse struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
}

func handleGet(svc *notify.Service, v version) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req getRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		q, err := req.query(v)
		if err != nil {
			return nil, err
		}
		page, err := svc.Get(c.Request.Context(), workspace(c), q)
		if err != nil {
			return nil, err
		}
		res := api.OK("Notifications retrieved.", page.Records)
		if v == v2 {
			res = res.With("pageToken", nextToken(page.NextPageToken))
		}
		return res, nil
	})
}

func handleUpdate(svc *notify.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req updateRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		changes, err := req.changes()
		if err != nil {
			return nil, err
		}
		outcomes, err := svc.Update(c.Request.Context(), workspace(c), req.filter(), changes)
		if err != nil {
			return nil, err
		}
		return api.OK("Notifications updated.", itemResults(outcomes)), nil
	})
}

func handleDelete(svc *notify.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req deleteRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		outcomes, err := svc.Delete(c.Request.Context(), workspace(c), req.filter())
		if err != nil {
			return nil, err
		}
		return api.OK("Notifications deleted.", itemResults(outcomes)), nil
	})
}
