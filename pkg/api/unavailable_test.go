package api

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestStoreUnreachableIsUnavailableWithRetryAfter(t *testing.T) {
	refused := fmt.Errorf("load page token: %w", &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")})
	for name, tc := range map[string]struct {
		err        error
		code       int
		retryAfter string
	}{
		"network failure": {refused, http.StatusServiceUnavailable, "5"},
		"unavailable":     {Errorf(Unavailable, "down"), http.StatusServiceUnavailable, "5"},
		"rate limited":    {Errorf(ResourceExhausted, "slow down"), http.StatusTooManyRequests, "1"},
		"other failure":   {errors.New("boom"), http.StatusInternalServerError, ""},
		"client mistake":  {Errorf(InvalidArgument, "bad"), http.StatusBadRequest, ""},
	} {
		w := httptest.NewRecorder()
		WriteError(context.Background(), w, tc.err)
		if w.Code != tc.code || w.Header().Get("Retry-After") != tc.retryAfter {
			t.Errorf("%s: HTTP %d Retry-After %q, want %d %q", name, w.Code, w.Header().Get("Retry-After"), tc.code, tc.retryAfter)
		}
	}
}
