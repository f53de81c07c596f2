package gateway

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/opencollab/backend/pkg/api"
)

// probeTimeout bounds the Redis check of /readyz.
const probeTimeout = 2 * time.Second

// probe serves /healthz (redisCheck nil: the process is alive) and /readyz.
// The gateway keeps serving without Redis (the rate limit fails open and
// credentials are looked up in svc-workspace directly), so a Redis outage
// must not take every replica out of rotation: /readyz answers 200 while
// the process serves and only reports Redis in its body, "ready" or
// "ready; redis: degraded". Method handling matches web.NewEngine's.
func (g *Gateway) probe(w http.ResponseWriter, r *http.Request, redisCheck func(context.Context) error) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		api.WriteError(r.Context(), w, api.Errorf(api.InvalidArgument, "method %s is not allowed; use GET", r.Method))
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if redisCheck == nil {
		_, _ = w.Write([]byte("ok"))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), probeTimeout)
	defer cancel()
	if err := redisCheck(ctx); err != nil {
		g.logger.WarnContext(ctx, "redis unreachable, serving degraded", "error", err)
		_, _ = w.Write([]byte("ready; redis: degraded"))
		return
	}
	_, _ = w.Write([]byte("ready"))
}

// statusRecorder remembers the status for the metrics and the access log.
type statusRecorder struct {
	http.ResponseWriter
	status  int
	start   time.Time
	elapsed time.Duration // set when the request is finished
}

func (s *statusRecorder) WriteHeader(code int) {
	s.noteStatus(code)
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) noteStatus(code int) {
	if s.status == 0 && code >= 200 {
		s.status = code
	}
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController (used by the reverse proxy to flush)
// reach the real writer.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// log writes the access log line; id points at the request id, which is
// known only once the request has been handled.
func (s *statusRecorder) log(ctx context.Context, logger *slog.Logger, r *http.Request, id *string) {
	logger.DebugContext(ctx, "request",
		"method", r.Method, "path", r.URL.Path, "status", s.status,
		"duration", s.elapsed, "requestId", *id)
}
