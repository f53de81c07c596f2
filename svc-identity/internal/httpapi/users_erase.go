package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-identity/internal/erasure"
)

type eraseUsersRequest struct {
	UserIDs         []string `json:"userIds" validate:"required,max=@erasure.userIds"`
	OrganizationIDs []string `json:"organizationIds" validate:"max=@erasure.organizationIds"`
}

type eraseStatusRequest struct {
	JobID string `json:"jobId" validate:"required,max=64"`
}

// eraseStatus is the hosted product's status shape plus, per service, what
// is done ("done") and what is still running ("pending").
type eraseStatus struct {
	IsDeleteCompleted     bool              `json:"isDeleteCompleted"`
	TasksLeft             int               `json:"tasksLeft"`
	LastTaskCompletedTime *int64            `json:"lastTaskCompletedTime"`
	Services              map[string]string `json:"services"`
}

func handleEraseUsers(jobs *erasure.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		if jobs == nil {
			return nil, api.Errorf(api.Unavailable, "user data erasure is not configured")
		}
		var req eraseUsersRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		if err := checkIDs("userIds", req.UserIDs); err != nil {
			return nil, err
		}
		// organizationIds is the hosted product's hint where the users
		// belong; erasure covers every organization of the workspace anyway
		// (data in an organization left out must go too), so it is only
		// checked and kept with the job.
		if err := checkIDs("organizationIds", req.OrganizationIDs); err != nil {
			return nil, err
		}
		j, err := jobs.Start(c.Request.Context(), workspace(c), erasure.Request{UserIDs: req.UserIDs, OrganizationIDs: req.OrganizationIDs})
		if err != nil {
			return nil, err
		}
		return api.OK("Data deletion process has been initiated.", map[string]any{"jobId": j.ID, "tasksCount": len(j.Tasks)}), nil
	})
}

func handleEraseStatus(jobs *erasure.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		if jobs == nil {
			return nil, api.Errorf(api.Unavailable, "user data erasure is not configured")
		}
		var req eraseStatusRequest
		if err := api.Decode(c.Request, &req); err != nil {
			return nil, err
		}
		j, err := jobs.Status(c.Request.Context(), workspace(c), req.JobID)
		if err != nil {
			return nil, err
		}
		out := eraseStatus{IsDeleteCompleted: len(j.Pending) == 0, TasksLeft: len(j.Pending), Services: map[string]string{}}
		for _, t := range j.Tasks {
			out.Services[t] = "done"
		}
		for _, p := range j.Pending {
			out.Services[p] = "pending"
		}
		if j.LastDoneAt > 0 {
			out.LastTaskCompletedTime = &j.LastDoneAt
		}
		return api.OK("Data fetched successfully.", out), nil
	})
}
