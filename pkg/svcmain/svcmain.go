// Package svcmain is the wiring every service binary shares: a
// signal-aware context, configuration loaded and logged with secrets
// masked, JSON logging, telemetry, MongoDB and Redis clients, the service
// built on them, and a server that listens first and drains on shutdown.
// Each cmd/<svc>/main.go only names its config and constructor.
package svcmain

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"github.com/opencollab/backend/pkg/config"
	"github.com/opencollab/backend/pkg/logging"
	"github.com/opencollab/backend/pkg/mongodb"
	"github.com/opencollab/backend/pkg/redisdb"
	"github.com/opencollab/backend/pkg/server"
	"github.com/opencollab/backend/pkg/service"
	"github.com/opencollab/backend/pkg/telemetry"
)

// Deps are the clients a service is built on.
type Deps = service.Deps

// Service is a built service. One that also has Close() is closed before
// the store clients, so its background work never sees them closed.
type Service interface {
	Handler() http.Handler
}

// Build constructs the service from its loaded configuration.
type Build func(ctx context.Context, d Deps) (Service, error)

// Main runs the service that newService builds until SIGINT/SIGTERM and
// exits 1 on failure. C is the service's Config (embedding service.Base),
// loaded from the environment first:
//
//	func main() { svcmain.Main(telemetry.Service{Name: svcx.Name, Version: svcx.Version}, svcx.New) }
func Main[C any, PC interface {
	*C
	service.Config
}, S Service](svc telemetry.Service, newService func(context.Context, C, Deps) (S, error)) {
	var cfg C
	build := func(ctx context.Context, d Deps) (Service, error) { return newService(ctx, cfg, d) }
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := Run(ctx, svc, PC(&cfg), build); err != nil {
		slog.ErrorContext(ctx, "exit", "error", err)
		stop()
		os.Exit(1)
	}
}

// Run is Main without the process concerns. Everything it starts belongs
// to svc in logs, traces and metrics.
func Run(ctx context.Context, svc telemetry.Service, cfg service.Config, build Build) error {
	ctx = telemetry.WithService(ctx, svc.Name)
	if err := config.Load(ctx, cfg); err != nil {
		return err
	}
	s := cfg.Common()
	if err := s.ValidateStores(); err != nil {
		return fmt.Errorf("invalid configuration: %w", err)
	}
	if s.MongoDB == "" {
		s.MongoDB = service.DefaultDatabase(svc.Name)
	}
	logger := logging.New(os.Stdout, logging.ParseLevel(s.LogLevel), svc.Name)
	slog.SetDefault(logger)
	config.Log(ctx, logger, "configuration", cfg, "version", svc.Version)

	shutdownTelemetry, err := telemetry.Setup(ctx, svc)
	if err != nil {
		return err
	}
	defer func() { _ = shutdownTelemetry(context.WithoutCancel(ctx)) }()

	mc, err := mongodb.Connect(ctx, s.MongoURI)
	if err != nil {
		return err
	}
	defer func() { _ = mc.Disconnect(context.WithoutCancel(ctx)) }()
	rdb, err := redisdb.Connect(ctx, s.RedisURL)
	if err != nil {
		return err
	}
	defer func() { _ = rdb.Close() }()

	built, err := build(ctx, Deps{DB: mc.Database(s.MongoDB), Redis: rdb, Logger: logger})
	if err != nil {
		return err
	}
	if c, ok := built.(interface{ Close() }); ok {
		defer c.Close() // deferred last, so it runs before the clients close
	}
	srv, err := server.Listen(s.ListenAddr)
	if err != nil {
		return err
	}
	logger.InfoContext(ctx, "listening", "addr", srv.Addr())
	return srv.Serve(ctx, built.Handler())
}
