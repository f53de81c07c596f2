package httpapi

import "github.com/opencollab/backend/pkg/api"

// The batch limits of svc-notify's operations, in one table: request
// structs name them as validate:"max=@notify.…", and the API reference
// lists them from api.Limits.
var limitTable = []api.Limit{
	{Name: "notify.notifyUsers", Max: 1000, Doc: "notifyUsers of notifications/add"},
	{Name: "notify.notifications", Max: 1000, Doc: "notifications of notifications/update; notificationIds of notifications/delete"},
	{Name: "notify.readByUserIds", Max: 1000, Doc: "readByUserIds of each notification of notifications/update"},
	{Name: "notify.getIds", Max: 30, Doc: "notificationIds of notifications/get"},
	{Name: "notify.configGetDocuments", Max: 30, Doc: "documentIds of notifications/config/get"},
	{Name: "notify.configSetUsers", Max: 100, Doc: "userIds of notifications/config/set"},
	{Name: "notify.configSetDocuments", Max: 100, Doc: "documentIds of notifications/config/set"},
}

func init() { api.RegisterLimits(limitTable...) }
