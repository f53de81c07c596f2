package web

import (
	"time"

	"github.com/gin-gonic/gin"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/opencollab/backend/pkg/telemetry"
)

// unmatchedRoute names requests no route took, so a scan of random paths
// cannot blow up the metrics' label sets.
const unmatchedRoute = "unmatched"

// observe names the server span (started around the engine by otelhttp)
// after the route, "POST /v2/users/get", gives it http.route, and records
// the request in the route's rate, error and duration metrics.
func observe() gin.HandlerFunc {
	return func(c *gin.Context) {
		start := time.Now()
		c.Next()
		route := c.FullPath()
		if route == "" {
			route = unmatchedRoute
		}
		ctx, method := c.Request.Context(), c.Request.Method
		if span := trace.SpanFromContext(ctx); span.IsRecording() {
			span.SetName(method + " " + route)
			span.SetAttributes(attribute.String("http.route", route))
		}
		telemetry.ObserveRequest(ctx, method, route, c.Writer.Status(), time.Since(start))
	}
}
