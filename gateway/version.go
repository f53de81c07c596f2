package gateway

import (
	_ "embed"
	"strings"
)

// Name is the service name in logs, traces and metrics.
const Name = "gateway"

//go:embed VERSION
var versionFile string

// Version is this service's release (VERSION), released on its own.
var Version = strings.TrimSpace(versionFile)
