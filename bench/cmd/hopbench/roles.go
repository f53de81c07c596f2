package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"time"

	"github.com/gin-gonic/gin"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"

	"github.com/opencollab/backend/gateway"
	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/config"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/logging"
	"github.com/opencollab/backend/pkg/redisdb"
	"github.com/opencollab/backend/pkg/server"
	"github.com/opencollab/backend/pkg/telemetry"
	"github.com/opencollab/backend/pkg/web"
)

// The processes under test run as this same binary with -role, so each has
// its own CPU account (/proc/<pid>/stat) and its own Go runtime, as in a
// deployment. They announce their address as the first line of stdout and
// log to stderr.

// Credentials of the benchmark workspace.
const (
	benchAPIKey    = "bench-api-key"
	benchToken     = "bench-auth-token"
	benchWorkspace = "ws-bench"
	benchPath      = "/v2/users/get"
	benchBody      = `{"data":{"organizationId":"bench-org","userIds":["user-001","user-002"]}}`
)

// runUpstream serves a stand-in service built exactly like the real ones
// (pkg/server, web.NewEngine on Gin, internalauth, otelhttp, telemetry) with
// a handler that decodes and validates its body and answers from memory, so
// what is measured is the HTTP and framework cost of a request, not a store.
// It also answers the credential lookup as svc-workspace does.
//
// upServer is the upstream's HTTP server: "net/http" (pkg/server, as our
// services run) or "h1" (the gateway's lean server with the header map
// filled, gateway.ListenServiceH1), to measure what a service would spend
// on it.
func runUpstream(ctx context.Context, secret, upServer string, withPprof bool) error {
	shutdown, err := telemetry.Setup(ctx, telemetry.Service{Name: "svc-bench"})
	if err != nil {
		return err
	}
	defer func() { _ = shutdown(context.WithoutCancel(ctx)) }()
	signer := internalauth.NewSigner(secret)
	engine := web.NewEngine(nil)
	engine.POST("/internal/credentials/lookup", signer.Authenticate(), internalauth.RequireService(),
		web.Handle(func(*gin.Context) (*api.Result, error) {
			return api.OK("found", map[string]any{
				"workspaceId": benchWorkspace, "tokenHashes": []string{internalauth.HashToken(benchToken)},
			}), nil
		}))
	users := engine.Group("", signer.Authenticate(), internalauth.RequireWorkspace())
	users.POST(benchPath, web.Handle(getUsers))
	srv, err := listenUpstream(upServer)
	if err != nil {
		return err
	}
	return serve(ctx, srv, otelhttp.NewHandler(engine, "svc-bench"), withPprof)
}

// listenUpstream binds a free loopback port for the upstream's server.
func listenUpstream(upServer string) (listening, error) {
	switch upServer {
	case "", upstreamNetHTTP:
		srv, err := server.Listen("127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		return srv, nil
	case upstreamH1:
		srv, err := gateway.ListenServiceH1("127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		return srv, nil
	}
	return nil, fmt.Errorf("upstream server must be %q or %q, not %q", upstreamNetHTTP, upstreamH1, upServer)
}

// getUsers is users/get without the store: decode, validate, answer.
func getUsers(c *gin.Context) (*api.Result, error) {
	var in struct {
		OrganizationID string   `json:"organizationId" validate:"required"`
		UserIDs        []string `json:"userIds"`
	}
	if err := api.Decode(c.Request, &in); err != nil {
		return nil, err
	}
	out := make([]map[string]string, 0, len(in.UserIDs))
	for _, id := range in.UserIDs {
		out = append(out, map[string]string{"userId": id, "name": "Bench " + id})
	}
	return api.OK("Retrieved users successfully.", out), nil
}

// The upstream's servers (-upstream-server).
const (
	upstreamNetHTTP = "net/http"
	upstreamH1      = "h1"
)

// gatewayArgs configure the gateway process.
type gatewayArgs struct {
	secret, upstream, redis string
	inbound                 string // Config.HTTPServer
}

// runGateway runs the gateway as cmd/gateway does, with production
// settings: rate limit on (high enough never to refuse), 1 s credential
// cache, info logging, tracing per the OTEL_* environment.
func runGateway(ctx context.Context, a gatewayArgs, withPprof bool) error {
	var gc gateway.Config // GOGC and GOMEMLIMIT as cmd/gateway applies them
	if err := config.Read(ctx, &gc, processEnv{}); err != nil {
		return err
	}
	gateway.ApplyGC(gc)
	shutdown, err := telemetry.Setup(ctx, telemetry.Service{Name: "gateway"})
	if err != nil {
		return err
	}
	defer func() { _ = shutdown(context.WithoutCancel(ctx)) }()
	rdb, err := redisdb.Connect(ctx, "redis://"+a.redis)
	if err != nil {
		return err
	}
	defer rdb.Close()
	logger := logging.New(os.Stderr, slog.LevelInfo, "gateway")
	gw, err := gateway.New(gateway.Config{
		ListenAddr: "127.0.0.1:0", RedisURL: "redis://" + a.redis, InternalSecret: a.secret,
		OperatorToken: "bench-operator-token", WorkspaceURL: a.upstream, IdentityURL: a.upstream,
		RateLimitPerSecond: 1 << 40, MaxBodyBytes: api.MaxBodyBytes, AuthCacheTTL: time.Second,
		AuthCacheKeepWarm: 5 * time.Minute, LogLevel: "info", HTTPServer: a.inbound,
	}, gateway.Deps{Redis: rdb, Logger: logger})
	if err != nil {
		return err
	}
	defer gw.Close()
	srv, err := gateway.ListenInbound(a.inbound, "127.0.0.1:0")
	if err != nil {
		return err
	}
	return serve(ctx, srv, gw.Handler(), withPprof)
}

// processEnv looks settings up in the process environment.
type processEnv struct{}

func (processEnv) Lookup(key string) (string, bool) { return os.LookupEnv(key) }

// listening is pkg/server's Server or the gateway's Inbound.
type listening interface {
	Addr() string
	Serve(ctx context.Context, h http.Handler) error
}

// serve announces the address on stdout and serves h. With
// withPprof the profiling endpoints listen on a second port, announced on
// the same line.
func serve(ctx context.Context, srv listening, h http.Handler, withPprof bool) error {
	pprofAddr, err := servePprof(withPprof)
	if err != nil {
		return err
	}
	fmt.Println(srv.Addr(), pprofAddr)
	return srv.Serve(ctx, h)
}

// servePprof serves the profiling endpoints on a port of their own and
// returns its address; "-" without withPprof.
func servePprof(withPprof bool) (string, error) {
	if !withPprof {
		return "-", nil
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	go func() { _ = http.Serve(ln, mux) }()
	return ln.Addr().String(), nil
}
