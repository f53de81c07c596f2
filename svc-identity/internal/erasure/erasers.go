package erasure

import (
	"context"

	erasurecontract "github.com/opencollab/backend/pkg/erasure"
	"github.com/opencollab/backend/pkg/internalauth"
)

// ErasePath is the route every other service serves for the job.
const ErasePath = erasurecontract.Path

// Caller calls one service's /internal routes (pkg/svcclient.Client).
type Caller interface {
	Call(ctx context.Context, path, principal string, in, out any) error
}

// Remote erases through another service's ErasePath.
type Remote struct{ Caller Caller }

// Erase implements Eraser.
func (r Remote) Erase(ctx context.Context, ws string, userIDs []string) error {
	in := map[string]any{"workspaceId": ws, "userIds": userIDs}
	return r.Caller.Call(ctx, ErasePath, internalauth.Service("identity"), in, nil)
}

// LocalStore is identity's own erasure (store.Store.EraseUser).
type LocalStore interface {
	EraseUser(ctx context.Context, ws, userID string) error
}

// Local erases identity's own records.
type Local struct{ Store LocalStore }

// Erase implements Eraser.
func (l Local) Erase(ctx context.Context, ws string, userIDs []string) error {
	for _, u := range userIDs {
		if err := l.Store.EraseUser(ctx, ws, u); err != nil {
			return err
		}
	}
	return nil
}
