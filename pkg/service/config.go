// Package service is the frame every service is built on: the configuration
// they all have (Base), and Frame, which holds the connected stores, the
// internal-auth signer, the Gin engine with the common middleware, health
// and readiness, and the background work that Close stops. A service's own
// code adds only its domain, its store and its routes.
package service

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// MinSecretLen is the shortest internal secret accepted.
const MinSecretLen = 16

// Base is the configuration every service has; each service's Config
// embeds it, so its env names are the same everywhere. An empty MongoDB is
// the service's DefaultDatabase (collab_<name without svc->), filled in by
// pkg/svcmain and shown as the default in docs/settings.md.
type Base struct {
	ListenAddr     string `env:"LISTEN_ADDR, default=:8080"`
	MongoURI       string `env:"MONGO_URI" mask:"true"`
	MongoDB        string `env:"MONGO_DB"`
	RedisURL       string `env:"REDIS_URL" mask:"true"`
	InternalSecret string `env:"INTERNAL_SECRET" mask:"true"`
	LogLevel       string `env:"LOG_LEVEL, default=info"`
}

// Config is what Start and pkg/svcmain need of a service's configuration:
// its own checks and the Base it embeds.
type Config interface {
	Validate() error
	Common() *Base
}

// Common returns the embedded Base (promoted to every service Config).
func (b *Base) Common() *Base { return b }

// Validate checks what every service needs to start. A service with more
// settings calls it from its own Validate.
func (b *Base) Validate() error {
	if len(b.InternalSecret) < MinSecretLen {
		return fmt.Errorf("INTERNAL_SECRET must be at least %d characters", MinSecretLen)
	}
	return nil
}

// ValidateStores checks the store addresses a standalone process connects
// to; a host passing ready clients in Deps has none, so Validate does not.
func (b *Base) ValidateStores() error {
	if b.MongoURI == "" {
		return errors.New("MONGO_URI is required")
	}
	if b.RedisURL == "" {
		return errors.New("REDIS_URL is required")
	}
	return nil
}

// DefaultDatabase is the database of a service whose MONGO_DB is unset:
// "svc-notify" keeps its data in "collab_notify".
func DefaultDatabase(name string) string {
	return "collab_" + strings.TrimPrefix(name, "svc-")
}

// CheckServiceURL accepts "" (the other service is not deployed) or
// http(s)://host[:port][/].
func CheckServiceURL(raw string) error {
	if raw == "" {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return err
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q: want http(s)://host[:port]", raw)
	}
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
		return fmt.Errorf("%q: must not have a path or query", raw)
	}
	return nil
}
