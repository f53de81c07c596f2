// Command svc-identity runs the identity service on its own.
package main

import (
	"context"

	"github.com/opencollab/backend/pkg/svcmain"
	"github.com/opencollab/backend/pkg/telemetry"
	svcidentity "github.com/opencollab/backend/svc-identity"
)

func main() {
	var cfg svcidentity.Config
	settings := func() svcmain.Settings {
		return svcmain.Settings{ListenAddr: cfg.ListenAddr, MongoURI: cfg.MongoURI, MongoDB: cfg.MongoDB, RedisURL: cfg.RedisURL, LogLevel: cfg.LogLevel}
	}
	svcmain.Main(telemetry.Service{Name: svcidentity.Name, Version: svcidentity.Version}, &cfg, settings, func(ctx context.Context, d svcmain.Deps) (svcmain.Service, error) {
		svc, err := svcidentity.New(ctx, cfg, svcidentity.Deps{DB: d.DB, Redis: d.Redis, Logger: d.Logger})
		if err != nil {
			return nil, err
		}
		return svc, nil
	})
}
