package httpapi

import "github.com/opencollab/backend/pkg/api"

// The batch limits of svc-workspace's operations, in one table: request
// structs name them as validate:"max=@workspace.…", and the API reference
// lists them from api.Limits.
var limitTable = []api.Limit{
	{Name: "workspace.domains", Max: 100, Doc: "domains of workspace/domains/add and delete"},
	{Name: "workspace.filterTypes", Max: 100, Doc: "filterTypes of advancedwebhook/endpoints/create and update"},
	{Name: "workspace.channels", Max: 100, Doc: "channels of advancedwebhook/endpoints/create and update"},
}

func init() { api.RegisterLimits(limitTable...) }
