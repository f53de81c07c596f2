package api

import (
	"context"
	"log/slog"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/telemetry"
)

// HandlerFunc is the shape of every operation handler: decode, validate,
// call, and return a result or an error. Handle turns it into a gin handler
// and writes the envelope.
type HandlerFunc func(c *gin.Context) (*Result, error)

// Handle adapts h to gin, writing the success or failure envelope.
func Handle(h HandlerFunc) gin.HandlerFunc {
	return func(c *gin.Context) {
		res, err := h(c)
		if err != nil {
			WriteError(c.Request.Context(), c.Writer, err)
			return
		}
		WriteJSON(c.Writer, http.StatusOK, res)
	}
}

// WriteError writes the failure envelope for err: the one place an error
// becomes a status and a message. Errors that are not *Error are logged and
// reported as INTERNAL without detail; the cause of a 5xx *Error is logged
// and never sent.
func WriteError(ctx context.Context, w http.ResponseWriter, err error) {
	apiErr, ok := AsError(err)
	switch {
	case !ok:
		slog.ErrorContext(ctx, "request failed", "error", err)
	case apiErr.Cause != nil && HTTPStatus(apiErr.Status) >= http.StatusInternalServerError:
		slog.WarnContext(ctx, "request failed", "status", apiErr.Status, "error", err)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	if ra := RetryAfterSeconds(apiErr.Status); ra != "" && w.Header().Get("Retry-After") == "" {
		w.Header().Set("Retry-After", ra)
	}
	w.WriteHeader(HTTPStatus(apiErr.Status))
	_, _ = w.Write(ErrorEnvelope(apiErr))
}

// WriteJSON writes v as JSON with the given status.
func WriteJSON(w http.ResponseWriter, code int, v any) {
	b, err := jsonMarshal(v)
	if err != nil {
		WriteError(context.Background(), w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	_, _ = w.Write(b)
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
		WriteError(c.Request.Context(), c.Writer, noOperation(c.Request.URL.Path))
	})
	e.NoMethod(func(c *gin.Context) {
		WriteError(c.Request.Context(), c.Writer, Errorf(InvalidArgument, "method %s is not allowed; every operation is POST", c.Request.Method))
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
func noOperation(path string) *Error {
	if trimmed := strings.TrimRight(path, "/"); trimmed != path && trimmed != "" {
		return Errorf(NotFound, "no operation at %s; operation paths have no trailing slash: %s", path, trimmed)
	}
	return Errorf(NotFound, "no operation at %s", path)
}

func recoverer() gin.HandlerFunc {
	return func(c *gin.Context) {
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				slog.ErrorContext(c.Request.Context(), "panic in handler", "panic", p, "path", c.Request.URL.Path)
				WriteError(c.Request.Context(), c.Writer, Errorf(Internal, "internal error"))
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
