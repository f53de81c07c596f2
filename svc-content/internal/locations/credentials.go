package locations

import (
	"context"
	"crypto/subtle"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/svcclient"
)

// LookupPath is svc-workspace's credential lookup route.
const LookupPath = "/internal/credentials/lookup"

// principal is svc-content's identity towards svc-workspace.
var principal = internalauth.Service("content")

// WorkspaceCredentials asks svc-workspace.
type WorkspaceCredentials struct {
	client *svcclient.Client
}

// NewWorkspaceCredentials returns a lookup over client (svc-workspace). An
// unconfigured client makes every lookup UNAVAILABLE: the check fails
// closed.
func NewWorkspaceCredentials(client *svcclient.Client) *WorkspaceCredentials {
	return &WorkspaceCredentials{client: client}
}

// LookupCredentials calls svc-workspace's lookup.
func (w *WorkspaceCredentials) LookupCredentials(ctx context.Context, apiKey string) (Credentials, error) {
	var out Credentials
	err := w.client.Call(ctx, LookupPath, principal, map[string]string{"apiKey": apiKey}, &out)
	return out, err
}

// checkCredentials requires apiKey to belong to workspaceID and authToken
// to be one of its live tokens; PERMISSION_DENIED otherwise, whichever is
// wrong.
func (s *Service) checkCredentials(ctx context.Context, workspaceID, apiKey, authToken string) error {
	denied := api.Errorf(api.PermissionDenied, "apiKey and authToken in data are not valid credentials of this workspace")
	found, err := s.creds.LookupCredentials(ctx, apiKey)
	if api.IsStatus(err, api.NotFound) {
		return denied
	}
	if err != nil {
		return err
	}
	tokenOK := tokenMatches(authToken, found.TokenHashes)
	if subtle.ConstantTimeCompare([]byte(found.WorkspaceID), []byte(workspaceID)) != 1 || !tokenOK {
		return denied
	}
	return nil
}

// tokenMatches compares the token's hash with every live hash in constant
// time, so the reply time says nothing about which hash came close.
func tokenMatches(token string, hashes []string) bool {
	h := []byte(internalauth.HashToken(token))
	match := 0
	for _, x := range hashes {
		match |= subtle.ConstantTimeCompare(h, []byte(x))
	}
	return match == 1
}
