// Command gateway runs the public API gateway.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/opencollab/backend/gateway"
	"github.com/opencollab/backend/pkg/config"
	"github.com/opencollab/backend/pkg/logging"
	"github.com/opencollab/backend/pkg/redisdb"
	"github.com/opencollab/backend/pkg/telemetry"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := realMain(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "gateway:", err)
		os.Exit(1)
	}
}

func realMain(ctx context.Context) error {
	var cfg gateway.Config
	if err := config.Load(ctx, &cfg); err != nil {
		return err
	}
	logger := logging.New(os.Stdout, logging.ParseLevel(cfg.LogLevel), "gateway")
	slog.SetDefault(logger)
	config.Log(ctx, logger, "configuration", &cfg)

	shutdownTelemetry, err := telemetry.Setup(ctx, "gateway")
	if err != nil {
		return err
	}
	defer func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := shutdownTelemetry(sctx); err != nil {
			logger.Warn("telemetry shutdown", "error", err)
		}
	}()

	rdb, err := redisdb.Connect(ctx, cfg.RedisURL)
	if err != nil {
		return err
	}
	defer rdb.Close()

	gw, err := gateway.New(cfg, gateway.Deps{Redis: rdb, Logger: logger})
	if err != nil {
		return err
	}
	srv, err := gateway.ListenInbound(cfg.HTTPServer, cfg.ListenAddr)
	if err != nil {
		return err
	}
	logger.InfoContext(ctx, "listening", "addr", srv.Addr(), "server", cfg.HTTPServer)
	err = srv.Serve(ctx, gw.Handler())
	// WebSocket tunnels are not part of the HTTP drain: they close after it.
	gw.Close()
	return err
}
