// Command svc-notify runs the notification service on its own.
package main

import (
	"github.com/opencollab/backend/pkg/svcmain"
	"github.com/opencollab/backend/pkg/telemetry"
	svcnotify "github.com/opencollab/backend/svc-notify"
)

func main() {
	svcmain.Main(telemetry.Service{Name: svcnotify.Name, Version: svcnotify.Version}, svcnotify.New)
}
