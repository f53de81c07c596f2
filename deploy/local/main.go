// Command local runs the whole backend in one process on embedded stores:
//
//	go run ./deploy/local
//
// It prints the gateway address and working credentials. Data lives under
// DATA_DIR (default ./data) and survives restarts; MONGO_URI / REDIS_URL
// point it at real servers instead.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/opencollab/backend/deploy/local/system"
	"github.com/opencollab/backend/pkg/config"
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
	RateLimitPerSecond int    `env:"RATE_LIMIT_PER_SECOND, default=0"`
	// WebhookAllowPrivateTargets accepts webhook endpoints on loopback and
	// private addresses (a receiver on this machine).
	WebhookAllowPrivateTargets bool   `env:"WEBHOOK_ALLOW_PRIVATE_TARGETS, default=false"`
	LogLevel                   string `env:"LOG_LEVEL, default=info"`
}

// Validate checks that bootstrap credentials come as a pair.
func (c *Config) Validate() error {
	if (c.BootstrapAPIKey == "") != (c.BootstrapAuthToken == "") {
		return fmt.Errorf("BOOTSTRAP_API_KEY and BOOTSTRAP_AUTH_TOKEN must be set together")
	}
	return nil
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := realMain(ctx); err != nil {
		slog.Error("local system failed", "error", err)
		os.Exit(1)
	}
}

func realMain(ctx context.Context) error {
	var cfg Config
	if err := config.Load(ctx, &cfg); err != nil {
		return err
	}
	logger := logging.New(os.Stderr, logging.ParseLevel(cfg.LogLevel), "local")
	slog.SetDefault(logger)
	shutdown, err := telemetry.Setup(ctx, "collab-local")
	if err != nil {
		return err
	}
	defer func() { _ = shutdown(context.WithoutCancel(ctx)) }()
	config.Log(ctx, logger, "starting local system", &cfg)

	sys, err := system.Start(ctx, system.Options{
		DataDir:     cfg.DataDir,
		GatewayAddr: cfg.GatewayAddr,
		MongoURI:    cfg.MongoURI,
		RedisURL:    cfg.RedisURL,
		Credentials: system.Credentials{
			APIKey:        cfg.BootstrapAPIKey,
			AuthToken:     cfg.BootstrapAuthToken,
			OperatorToken: cfg.OperatorToken,
		},
		RateLimitPerSecond:         cfg.RateLimitPerSecond,
		WebhookAllowPrivateTargets: cfg.WebhookAllowPrivateTargets,
		Logger:                     logger,
	})
	if err != nil {
		return err
	}
	printBanner(sys)
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
