package main

import (
	"github.com/opencollab/backend/pkg/svcmain"
	"github.com/opencollab/backend/pkg/telemetry"
	svcidentity "github.com/opencollab/backend/svc-identity"
)

func main() {
	svcmain.Main(telemetry.Service{Name: svcidentity.Name, Version: svcidentity.Version}, svcidentity.New)
}
