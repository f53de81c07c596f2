// Command svc-content runs the content service on its own.
package main

import (
	"context"

	"github.com/opencollab/backend/pkg/svcmain"
	"github.com/opencollab/backend/pkg/telemetry"
	svccontent "github.com/opencollab/backend/svc-content"
)

func main() {
	var cfg svccontent.Config
	settings := func() svcmain.Settings {
		return svcmain.Settings{ListenAddr: cfg.ListenAddr, MongoURI: cfg.MongoURI, MongoDB: cfg.MongoDB, RedisURL: cfg.RedisURL, LogLevel: cfg.LogLevel}
	}
	svcmain.Main(telemetry.Service{Name: svccontent.Name, Version: svccontent.Version}, &cfg, settings, func(ctx context.Context, d svcmain.Deps) (svcmain.Service, error) {
		svc, err := svccontent.New(ctx, cfg, svccontent.Deps{DB: d.DB, Redis: d.Redis, Logger: d.Logger})
		if err != nil {
			return nil, err
		}
		return svc, nil
	})
}
