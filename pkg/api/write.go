package api

import (
	"context"
	"log/slog"
	"net/http"
)

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
