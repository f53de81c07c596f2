package api

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestErrorCauseIsKeptButNeverSent(t *testing.T) {
	t.Parallel()
	cause := context.DeadlineExceeded
	err := error(Errorf(Unavailable, "svc-x is unavailable").WithCause(cause))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatal("errors.Is does not see the cause")
	}
	if apiErr, ok := AsError(err); !ok || apiErr.Status != Unavailable {
		t.Fatalf("AsError = %v, %v", apiErr, ok)
	}
	rec := httptest.NewRecorder()
	WriteError(t.Context(), rec, err)
	if rec.Code != 503 || strings.Contains(rec.Body.String(), "deadline") || !strings.Contains(rec.Body.String(), "svc-x is unavailable") {
		t.Fatalf("HTTP %d %s: want 503 with the message and without the cause", rec.Code, rec.Body)
	}
}
