// Command gateway runs the public API gateway.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/opencollab/backend/gateway"
	"github.com/opencollab/backend/pkg/config"
	"github.com/opencollab/backend/pkg/logging"
	"github.com/opencollab/backend/pkg/redisdb"
	"github.com/opencollab/backend/pkg/server"
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
	ctx = telemetry.WithService(ctx, gateway.Name)
	var cfg gateway.Config
	if err := config.Load(ctx, &cfg); err != nil {
		return err
	}
	logger := logging.New(os.Stdout, logging.ParseLevel(cfg.LogLevel), gateway.Name)
	slog.SetDefault(logger)
	config.Log(ctx, logger, "configuration", &cfg, "version", gateway.Version)
	gateway.ApplyGC(cfg)

	shutdownTelemetry, err := telemetry.Setup(ctx, telemetry.Service{Name: gateway.Name, Version: gateway.Version})
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
	if err := serveMetrics(ctx, cfg.MetricsAddr); err != nil {
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

// serveMetrics serves /metrics on addr until ctx ends; "" serves nothing.
func serveMetrics(ctx context.Context, addr string) error {
	if addr == "" {
		return nil
	}
	srv, err := server.Listen(addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", telemetry.MetricsHandler())
	go func() {
		if err := srv.Serve(ctx, mux); err != nil {
			slog.ErrorContext(ctx, "metrics listener stopped", "error", err)
		}
	}()
	slog.InfoContext(ctx, "serving metrics", "addr", srv.Addr())
	return nil
}
