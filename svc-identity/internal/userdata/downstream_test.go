package userdata

import (
	"errors"
	"testing"

	"github.com/opencollab/backend/pkg/api"
)

func TestDownstreamErrorNeverPassesForSuccess(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   error
		want api.Status
	}{
		{"unreachable", api.Errorf(api.Unavailable, "svc-notify is unavailable"), api.Unavailable},
		{"internal", api.Errorf(api.Internal, "boom"), api.Unavailable},
		{"signature refused", api.Errorf(api.PermissionDenied, "request is not authenticated"), api.Unavailable},
		{"unreadable reply", errors.New("decode reply: EOF"), api.Unavailable},
		{"bad cursor", api.Errorf(api.InvalidArgument, "cursor is malformed"), api.InvalidArgument},
		{"overloaded", api.Errorf(api.ResourceExhausted, "slow down"), api.ResourceExhausted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := downstreamError("svc-notify", "notifications", tc.in)
			var apiErr *api.Error
			if !errors.As(err, &apiErr) || apiErr.Status != tc.want || apiErr.Message == "" {
				t.Fatalf("got %v, want %s", err, tc.want)
			}
		})
	}
	if downstreamError("svc-notify", "notifications", nil) != nil {
		t.Fatal("no error became an error")
	}
}
