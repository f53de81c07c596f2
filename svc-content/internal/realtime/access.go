package realtime

import (
	"context"
	"errors"
	"time"
)

// Role is what a session may do with a document.
type Role string

// Roles: an editor reads and writes; a viewer reads (and shares its
// awareness) but its updates are neither applied, relayed nor stored.
const (
	RoleEditor Role = "editor"
	RoleViewer Role = "viewer"
)

// Grant is a verified token's access to one document.
type Grant struct {
	Workspace string
	UserID    string
	Role      Role
	ExpiresAt time.Time // the token's expiry: the session ends then
}

// Access verifies user tokens (svc-identity decides).
type Access interface {
	// Check verifies token and decides its access to the document.
	// Errors: a *Denial for a refused token, anything else when the
	// decision could not be made.
	Check(ctx context.Context, token, org, doc string) (Grant, error)
}

// Denial is a refused token: Unauthenticated for a bad or expired token,
// otherwise the token is valid but grants no access to the document.
type Denial struct {
	Unauthenticated bool
	Reason          string
}

func (d *Denial) Error() string { return d.Reason }

// asDenial returns err's Denial, if it is one.
func asDenial(err error) (*Denial, bool) {
	var d *Denial
	ok := errors.As(err, &d)
	return d, ok
}
