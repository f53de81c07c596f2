// Command local runs the whole backend in one process on embedded stores:
//
//	go run ./deploy/local
//
// It prints the gateway address and working credentials. Data lives under
// DATA_DIR (default ./data) and survives restarts; MONGO_URI / REDIS_URL
// point it at real servers instead. Every service reads its settings from
// the environment as its own binary does (docs/settings.md), e.g.
// WEBHOOK_ALLOW_PRIVATE_TARGETS=true to deliver webhooks to a receiver on
// this machine.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/sethvargo/go-envconfig"

	"github.com/opencollab/backend/deploy/local/system"
	"github.com/opencollab/backend/pkg/config"
	"github.com/opencollab/backend/pkg/embedded"
	"github.com/opencollab/backend/pkg/logging"
	"github.com/opencollab/backend/pkg/telemetry"
)

// Config is read from the environment.
type Config struct {
	DataDir            string `env:"DATA_DIR, default=./data"`
	GatewayAddr        string `env:"GATEWAY_ADDR, default=127.0.0.1:8080"`
	MongoURI           string `env:"MONGO_URI" mask:"true"`
	RedisURL           string `env:"REDIS_URL" mask:"true"`
	OperatorToken      string `env:"OPERATOR_TOKEN" mask:"true"`
	BootstrapAPIKey    string `env:"BOOTSTRAP_API_KEY"`
	BootstrapAuthToken string `env:"BOOTSTRAP_AUTH_TOKEN" mask:"true"`
	LogLevel           string `env:"LOG_LEVEL, default=info"`
	// When the embedded store (no MONGO_URI) waits for the disk: normal
	// syncs at checkpoints, so an acknowledged write survives kill -9 of the
	// process but an OS crash or power loss may lose the last ones; full
	// syncs every commit (also survives those), about 2-3 times slower per
	// write.
	EmbeddedSync string `env:"EMBEDDED_SYNC, default=normal"`
	// PprofAddr, when set, serves Go's profiles (/debug/pprof/) there:
	// benchmarks profile the whole system under load (realtimebench
	// -profile). Off by default; meant for a loopback address.
	PprofAddr string `env:"PPROF_ADDR"`
}

// Validate checks that bootstrap credentials come as a pair.
func (c *Config) Validate() error {
	if (c.BootstrapAPIKey == "") != (c.BootstrapAuthToken == "") {
		return fmt.Errorf("BOOTSTRAP_API_KEY and BOOTSTRAP_AUTH_TOKEN must be set together")
	}
	if s := embedded.Sync(c.EmbeddedSync); s != embedded.SyncNormal && s != embedded.SyncFull {
		return fmt.Errorf("EMBEDDED_SYNC %q: want %q or %q", c.EmbeddedSync, embedded.SyncNormal, embedded.SyncFull)
	}
	return nil
}

// hostName is the stack's own name in logs and telemetry.
const hostName = "collab-local"

func main() {
	if code, ok := runInForeground(); ok {
		os.Exit(code)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := realMain(telemetry.WithService(ctx, hostName), printBanner); err != nil {
		slog.Error("local system failed", "error", err)
		os.Exit(1)
	}
}

// realMain runs the stack until ctx ends, calling started once it serves.
func realMain(ctx context.Context, started func(*system.System)) error {
	var cfg Config
	if err := config.Load(ctx, &cfg); err != nil {
		return err
	}
	// No service on the logger: each line names the service whose work it
	// logs (the services' loggers, or the context's service).
	logger := logging.New(os.Stderr, logging.ParseLevel(cfg.LogLevel), "")
	slog.SetDefault(logger)
	shutdown, err := telemetry.Setup(ctx, system.TelemetryServices(hostName)...)
	if err != nil {
		return err
	}
	defer func() { _ = shutdown(context.WithoutCancel(ctx)) }()
	config.Log(ctx, logger, "starting local system", &cfg)
	if err := servePprof(ctx, cfg.PprofAddr); err != nil {
		return err
	}

	sys, err := system.Start(ctx, system.Options{
		DataDir:      cfg.DataDir,
		GatewayAddr:  cfg.GatewayAddr,
		MongoURI:     cfg.MongoURI,
		RedisURL:     cfg.RedisURL,
		EmbeddedSync: embedded.Sync(cfg.EmbeddedSync),
		Credentials: system.Credentials{
			APIKey:        cfg.BootstrapAPIKey,
			AuthToken:     cfg.BootstrapAuthToken,
			OperatorToken: cfg.OperatorToken,
		},
		Env:    envconfig.OsLookuper(),
		Logger: logger,
	})
	if err != nil {
		return err
	}
	started(sys)
	return sys.Wait()
}

func printBanner(sys *system.System) {
	c := sys.Credentials
	fmt.Printf(`
Collaboration backend is running.

  gateway          %s
  x-svc-api-key    %s
  x-svc-auth-token %s
  operator token   %s   (header x-svc-operator-token)

Try:
  curl -s -X POST %s/v2/users/get \
    -H 'x-svc-api-key: %s' -H 'x-svc-auth-token: %s' \
    -H 'content-type: application/json' -d '{"data":{"organizationId":"org-1"}}'

Ctrl-C stops it; data stays in the data directory.
`, sys.GatewayURL, c.APIKey, c.AuthToken, c.OperatorToken, sys.GatewayURL, c.APIKey, c.AuthToken)
}
