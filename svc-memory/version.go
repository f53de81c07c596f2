package svcmemory

import (
	_ "embed"
	"strings"
)

//go:embed VERSION
var versionFile string

// Version is this service's release (VERSION), released on its own.
var Version = strings.TrimSpace(versionFile)
