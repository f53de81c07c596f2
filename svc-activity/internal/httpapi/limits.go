package httpapi

import "github.com/opencollab/backend/pkg/api"

// The batch limits of svc-activity's operations, in one table: request
// structs name them as validate:"max=@activity.…", and the API reference
// lists them from api.Limits.
var limitTable = []api.Limit{
	{Name: "activity.activities", Max: 500, Doc: "activities of activities/add and activities/update"},
	{Name: "activity.ids", Max: 1000, Doc: "activityIds of activities/get and activities/delete"},
	{Name: "activity.actionTypes", Max: 100, Doc: "actionTypes of activities/get"},
	{Name: "activity.featureTypes", Max: 5, Doc: "featureTypes of activities/get (each of the five once)"},
}

func init() { api.RegisterLimits(limitTable...) }
