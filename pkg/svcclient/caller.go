package svcclient

import (
	"context"
	"slices"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
)

// Caller calls a service as one service: every call carries that
// service's principal. The internal contracts (pkg/docaccess,
// pkg/docmigrate, pkg/folderdocs, pkg/docscope) are typed wrappers of
// one. The zero Caller is not configured.
type Caller struct {
	client    *Client
	principal string
}

// As returns client calling as the service named service.
func As(client *Client, service string) Caller {
	return Caller{client: client, principal: internalauth.Service(service)}
}

// Configured reports whether the callee has an address.
func (c Caller) Configured() bool { return c.client.Configured() }

// Call posts in to path and decodes result.data into out (out may be nil).
func (c Caller) Call(ctx context.Context, path string, in, out any) error {
	return c.client.Call(ctx, path, c.principal, in, out)
}

// PassOn is err as a caller should pass it to its own caller: UNAVAILABLE
// (the callee down), errors that are no API error, and the statuses the
// route answers with (keep) as they are. Any other refusal of the call is a
// fault between the services (a wrong secret, a malformed request), not
// the end client's: passed on, a PERMISSION_DENIED or NOT_FOUND would read
// as an answer about its request, so it is INTERNAL, saying what was
// refused.
func PassOn(err error, refused string, keep ...api.Status) error {
	e, ok := api.AsError(err)
	if !ok || e.Status == api.Unavailable || slices.Contains(keep, e.Status) {
		return err
	}
	return api.Errorf(api.Internal, "%s", refused).WithCause(err)
}
