// Command svc-workspace runs the workspace service on its own.
package main

import (
	"context"

	"github.com/opencollab/backend/pkg/svcmain"
	"github.com/opencollab/backend/pkg/telemetry"
	svcworkspace "github.com/opencollab/backend/svc-workspace"
)

func main() {
	var cfg svcworkspace.Config
	settings := func() svcmain.Settings {
		return svcmain.Settings{ListenAddr: cfg.ListenAddr, MongoURI: cfg.MongoURI, MongoDB: cfg.MongoDB, RedisURL: cfg.RedisURL, LogLevel: cfg.LogLevel}
	}
	svcmain.Main(telemetry.Service{Name: svcworkspace.Name, Version: svcworkspace.Version}, &cfg, settings, func(ctx context.Context, d svcmain.Deps) (svcmain.Service, error) {
		svc, err := svcworkspace.New(ctx, cfg, svcworkspace.Deps{DB: d.DB, Redis: d.Redis, Logger: d.Logger})
		if err != nil {
			return nil, err
		}
		return svc, nil
	})
}
