// Command svc-memory runs the memory service on its own.
package main

import (
	"context"

	"github.com/opencollab/backend/pkg/svcmain"
	"github.com/opencollab/backend/pkg/telemetry"
	svcmemory "github.com/opencollab/backend/svc-memory"
)

func main() {
	var cfg svcmemory.Config
	settings := func() svcmain.Settings {
		return svcmain.Settings{ListenAddr: cfg.ListenAddr, MongoURI: cfg.MongoURI, MongoDB: cfg.MongoDB, RedisURL: cfg.RedisURL, LogLevel: cfg.LogLevel}
	}
	svcmain.Main(telemetry.Service{Name: svcmemory.Name, Version: svcmemory.Version}, &cfg, settings, func(ctx context.Context, d svcmain.Deps) (svcmain.Service, error) {
		svc, err := svcmemory.New(ctx, cfg, svcmemory.Deps{DB: d.DB, Redis: d.Redis, Logger: d.Logger})
		if err != nil {
			return nil, err
		}
		return svc, nil
	})
}
