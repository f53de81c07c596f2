package main

import (
	"github.com/opencollab/backend/pkg/svcmain"
	"github.com/opencollab/backend/pkg/telemetry"
	svccontent "github.com/opencollab/backend/svc-content"
)

func main() {
	svcmain.Main(telemetry.Service{Name: svccontent.Name, Version: svccontent.Version}, svccontent.New)
}
