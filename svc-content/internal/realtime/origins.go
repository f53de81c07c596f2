package realtime

import (
	"context"
	"strconv"
)

// OriginPolicy says whether a browser's Origin may open a workspace's
// documents: the workspace's allowed domains (/v2/workspace/domains/add),
// cached by the implementation (pkg/features.Checker) so the decision of
// a connection costs no call in the common case.
type OriginPolicy interface {
	AllowsOrigin(ctx context.Context, workspaceID, origin string) (bool, error)
}

// checkOrigin refuses a document to a connection whose Origin is outside
// the workspace's allowed domains; the workspace is known only once the
// token is verified, so the refusal comes with the token's decision (close
// 4403 on y-websocket, PermissionDenied on Hocuspocus), with the reason.
func (h *Hub) checkOrigin(ctx context.Context, workspace, origin string) (code int, reason string) {
	if h.origins == nil {
		return 0, ""
	}
	actx, cancel := context.WithTimeout(ctx, accessTimeout)
	ok, err := h.origins.AllowsOrigin(actx, workspace, origin)
	cancel()
	if err != nil {
		h.logger.Warn("realtime: allowed domains lookup failed", "error", err)
		return CloseInternal, "access could not be decided; retry"
	}
	if !ok {
		return CloseForbidden, "origin " + strconv.Quote(origin) + " is not among the workspace's allowed domains (/v2/workspace/domains/add)"
	}
	return 0, ""
}
