// Command svc-activity runs the activity service on its own.
package main

import (
	"context"

	"github.com/opencollab/backend/pkg/svcmain"
	"github.com/opencollab/backend/pkg/telemetry"
	svcactivity "github.com/opencollab/backend/svc-activity"
)

func main() {
	var cfg svcactivity.Config
	settings := func() svcmain.Settings {
		return svcmain.Settings{ListenAddr: cfg.ListenAddr, MongoURI: cfg.MongoURI, MongoDB: cfg.MongoDB, RedisURL: cfg.RedisURL, LogLevel: cfg.LogLevel}
	}
	svcmain.Main(telemetry.Service{Name: svcactivity.Name, Version: svcactivity.Version}, &cfg, settings, func(ctx context.Context, d svcmain.Deps) (svcmain.Service, error) {
		svc, err := svcactivity.New(ctx, cfg, svcactivity.Deps{DB: d.DB, Redis: d.Redis, Logger: d.Logger})
		if err != nil {
			return nil, err
		}
		return svc, nil
	})
}
