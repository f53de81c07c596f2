// Command svc-activity runs the activity service on its own.
package main

import (
	"github.com/opencollab/backend/pkg/svcmain"
	"github.com/opencollab/backend/pkg/telemetry"
	svcactivity "github.com/opencollab/backend/svc-activity"
)

func main() {
	svcmain.Main(telemetry.Service{Name: svcactivity.Name, Version: svcactivity.Version}, svcactivity.New)
}
