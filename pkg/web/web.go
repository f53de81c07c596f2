// Package web is the Gin frame of every service's HTTP surface: the engine
// with the common middleware (recovery, route metrics and spans, health and
// readiness, envelopes for unknown paths and methods) and the adapter that
// turns an operation handler's result or error into the envelope
// (api.WriteError is the one mapping of errors). Domain packages never
// import it; they return *api.Error.
package web

import (
	"context"
	"log/slog"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/telemetry"
)

// HandlerFunc is the shape of every operation handler: decode, validate,
// call, and return a result or an error. Handle turns it into a gin handler
// and writes the envelope.
type HandlerFunc func(c *gin.Context) (*api.Result, error)

// Handle adapts h to gin, writing the success or failure envelope.
func Handle(h HandlerFunc) gin.HandlerFunc {
	return func(c *gin.Context) {
		res, err := h(c)
		if err != nil {
			api.WriteError(c.Request.Context(), c.Writer, err)
			return
		}
		api.WriteJSON(c.Writer, http.StatusOK, res)
	}
}

// NewEngine returns a gin engine with the conventions of every service:
// recovery into an INTERNAL envelope, NOT_FOUND for unknown paths and
// INVALID_ARGUMENT for methods other than the route's, and /healthz and
// /readyz (ready runs the given check); spans named by route, rate, error
// and duration metrics per route, and /metrics serving them.
func NewEngine(ready func(context.Context) error) *gin.Engine {
	gin.SetMode(gin.ReleaseMode)
	e := gin.New()
	e.HandleMethodNotAllowed = true
	// A bare 307 to the path without the slash is outside the envelope and
	// loses the body on some clients: answer NOT_FOUND naming the path.
	e.RedirectTrailingSlash = false
	e.RedirectFixedPath = false
	e.Use(observe(), recoverer())
	e.NoRoute(func(c *gin.Context) {
		api.WriteError(c.Request.Context(), c.Writer, noOperation(c.Request.URL.Path))
	})
	e.NoMethod(func(c *gin.Context) {
		api.WriteError(c.Request.Context(), c.Writer, api.Errorf(api.InvalidArgument, "method %s is not allowed; every operation is POST", c.Request.Method))
	})
	e.GET("/metrics", gin.WrapH(telemetry.MetricsHandler()))
	e.GET("/healthz", func(c *gin.Context) { c.String(http.StatusOK, "ok") })
	e.GET("/readyz", func(c *gin.Context) {
		if ready != nil {
			if err := ready(c.Request.Context()); err != nil {
				slog.WarnContext(c.Request.Context(), "not ready", "error", err)
				c.String(http.StatusServiceUnavailable, "not ready")
				return
			}
		}
		c.String(http.StatusOK, "ready")
	})
	return e
}

// noOperation is the NOT_FOUND of a path no route serves.
func noOperation(path string) *api.Error {
	if trimmed := strings.TrimRight(path, "/"); trimmed != path && trimmed != "" {
		return api.Errorf(api.NotFound, "no operation at %s; operation paths have no trailing slash: %s", path, trimmed)
	}
	return api.Errorf(api.NotFound, "no operation at %s", path)
}

func recoverer() gin.HandlerFunc {
	return func(c *gin.Context) {
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				slog.ErrorContext(c.Request.Context(), "panic in handler", "panic", p, "path", c.Request.URL.Path)
				api.WriteError(c.Request.Context(), c.Writer, api.Errorf(api.Internal, "internal error"))
				c.Abort()
			}
		}()
		c.Next()
	}
}

// Routes lists the routes registered on e as "METHOD /path" (gin's
// ":name" segments as "{name}"), for the test that compares every
// service's surface with the OpenAPI description.
func Routes(e *gin.Engine) []string {
	var out []string
	for _, r := range e.Routes() {
		segs := strings.Split(r.Path, "/")
		for i, s := range segs {
			if strings.HasPrefix(s, ":") || strings.HasPrefix(s, "*") {
				segs[i] = "{" + s[1:] + "}"
			}
		}
		out = append(out, r.Method+" "+strings.Join(segs, "/"))
	}
	return out
}
