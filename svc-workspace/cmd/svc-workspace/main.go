package main

import (
	"github.com/opencollab/backend/pkg/svcmain"
	"github.com/opencollab/backend/pkg/telemetry"
	svcworkspace "github.com/opencollab/backend/svc-workspace"
)

func main() {
	svcmain.Main(telemetry.Service{Name: svcworkspace.Name, Version: svcworkspace.Version}, svcworkspace.New)
}
