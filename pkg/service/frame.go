package service

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"

	"github.com/gin-gonic/gin"
	"github.com/redis/go-redis/v9"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"

	"github.com/opencollab/backend/pkg/events"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/pagetoken"
	"github.com/opencollab/backend/pkg/svcclient"
	"github.com/opencollab/backend/pkg/web"
)

// Deps are the connected stores a service runs on. Logger nil means
// slog.Default().
type Deps struct {
	DB     *mongo.Database
	Redis  *redis.Client
	Logger *slog.Logger
}

// Frame is a service's running skeleton. Its Handler serves the engine
// traced; Close stops the background work started with Go and Publisher.
type Frame struct {
	Name string
	Deps
	Secret string
	Signer *internalauth.Signer
	// Engine has recovery, metrics, spans, /healthz and /readyz (the
	// stores' pings and every ReadyWhen check); the service adds its routes.
	Engine *gin.Engine

	handler http.Handler
	ready   []func(context.Context) error
	bg      context.Context
	stop    context.CancelFunc
	work    sync.WaitGroup
	closed  sync.Once
}

// Start validates cfg and deps and returns the frame. Background work
// outlives ctx (a start-up deadline must not stop it); Close ends it.
func Start(ctx context.Context, name string, cfg Config, deps Deps) (*Frame, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if deps.DB == nil || deps.Redis == nil {
		return nil, fmt.Errorf("%s: Deps.DB and Deps.Redis are required", name)
	}
	if deps.Logger == nil {
		deps.Logger = slog.Default()
	}
	secret := cfg.Common().InternalSecret
	f := &Frame{Name: name, Deps: deps, Secret: secret, Signer: internalauth.NewSigner(secret)}
	f.Engine = web.NewEngine(f.readiness)
	f.handler = otelhttp.NewHandler(f.Engine, name)
	f.bg, f.stop = context.WithCancel(context.WithoutCancel(ctx))
	return f, nil
}

// readiness is ready when every ReadyWhen check passes and both stores answer.
func (f *Frame) readiness(ctx context.Context) error {
	for _, check := range f.ready {
		if err := check(ctx); err != nil {
			return err
		}
	}
	return errors.Join(f.DB.Client().Ping(ctx, nil), f.Redis.Ping(ctx).Err())
}

// ReadyWhen adds a readiness check, run before the stores' pings.
func (f *Frame) ReadyWhen(check func(context.Context) error) { f.ready = append(f.ready, check) }

// Fail stops what the frame started and names the service in err, for a
// New that gives up half-way.
func (f *Frame) Fail(err error) error {
	f.Close()
	return fmt.Errorf("%s: %w", f.Name, err)
}

// Ensure runs the index set-ups in order; at the first failure it fails
// the frame (Fail) and returns that error.
func (f *Frame) Ensure(ctx context.Context, ensures ...func(context.Context) error) error {
	for _, ensure := range ensures {
		if err := ensure(ctx); err != nil {
			return f.Fail(err)
		}
	}
	return nil
}

// Publisher runs the index set-ups (Ensure), then returns the service's
// event publisher on events:<source>, its outbox indexed and relayed in
// the background until Close. An error has failed the frame.
func (f *Frame) Publisher(ctx context.Context, source string, ensures ...func(context.Context) error) (*events.Publisher, error) {
	pub := events.NewPublisher(f.Redis, f.DB, source, f.Logger)
	if err := f.Ensure(ctx, append(ensures, pub.EnsureIndexes)...); err != nil {
		return nil, err
	}
	f.Go(pub.RunRelay)
	return pub, nil
}

// PageTokens is the page-token store every replica of a service reads
// (sealed with the internal secret).
func (f *Frame) PageTokens() *pagetoken.Store {
	return pagetoken.New(f.Redis, 0).WithSecret(f.Secret)
}

// Client is a signed client of the service at baseURL, nil when it has no
// address (not deployed).
func (f *Frame) Client(name, baseURL string) *svcclient.Client {
	if baseURL == "" {
		return nil
	}
	return svcclient.New(name, strings.TrimSuffix(baseURL, "/"), f.Signer)
}

// Go runs work in the background until Close cancels its context.
func (f *Frame) Go(work func(ctx context.Context)) {
	f.work.Go(func() { work(f.bg) })
}

// Handler serves every route, traced.
func (f *Frame) Handler() http.Handler { return f.handler }

// Routes lists the service's HTTP routes as "METHOD /path" (web.Routes).
func (f *Frame) Routes() []string { return web.Routes(f.Engine) }

// Close stops the background work and waits for it. Calling it again does
// nothing.
func (f *Frame) Close() {
	f.closed.Do(func() {
		f.stop()
		f.work.Wait()
	})
}
