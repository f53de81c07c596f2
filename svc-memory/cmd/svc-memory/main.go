package main

import (
	"github.com/opencollab/backend/pkg/svcmain"
	"github.com/opencollab/backend/pkg/telemetry"
	svcmemory "github.com/opencollab/backend/svc-memory"
)

func main() {
	svcmain.Main(telemetry.Service{Name: svcmemory.Name, Version: svcmemory.Version}, svcmemory.New)
}
