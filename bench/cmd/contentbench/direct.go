package main

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/opencollab/backend/deploy/local/benchkit"
	"github.com/opencollab/backend/deploy/local/system"
	"github.com/opencollab/backend/pkg/internalauth"
)

// direct reads the two halves of users/data/get straight from the services
// that own them, signed as svc-identity signs its fan-out, to tell where a
// page's time goes as the user's records grow.
type direct struct {
	c      *benchkit.Client
	signer *internalauth.Signer
	urls   map[string]string
	ws     string
}

// newDirect learns the workspace of the local credentials by asking
// svc-workspace as the gateway does.
func newDirect(ctx context.Context, sys *system.System, c *benchkit.Client) (*direct, error) {
	d := &direct{c: c, signer: internalauth.NewSigner(sys.InternalSecret), urls: sys.ServiceURLs}
	var out result[struct {
		WorkspaceID string `json:"workspaceId"`
	}]
	err := d.call(ctx, "workspace", "/internal/credentials/lookup", "gateway", map[string]any{"apiKey": sys.Credentials.APIKey}, &out)
	d.ws = out.Data.WorkspaceID
	return d, err
}

func (d *direct) call(ctx context.Context, service, path, as string, data, out any) error {
	return d.c.Post(ctx, d.urls[service]+path, func(h http.Header) {
		d.signer.Sign(h, internalauth.Service(as))
	}, data, out)
}

// contentPart is svc-content's first page of the user's comments,
// reactions and recordings; it returns how many items it held.
func (d *direct) contentPart(ctx context.Context, user string) (int, error) {
	var out result[struct {
		Comments   []json.RawMessage `json:"comments"`
		Reactions  []json.RawMessage `json:"reactions"`
		Recordings []json.RawMessage `json:"recordings"`
	}]
	err := d.call(ctx, "content", "/internal/userdata/content", "identity", map[string]any{
		"workspaceId": d.ws, "organizationId": benchOrg, "userId": user,
		"cursors": map[string]string{"comments": "", "reactions": "", "recordings": ""}, "limit": userDataPageLimit,
	}, &out)
	data := out.Data
	return len(data.Comments) + len(data.Reactions) + len(data.Recordings), err
}

// notifyPart is svc-notify's first page of the user's notifications.
func (d *direct) notifyPart(ctx context.Context, user string) (int, error) {
	var out result[struct {
		Items []json.RawMessage `json:"items"`
	}]
	err := d.call(ctx, "notify", "/internal/userdata/notifications", "identity", map[string]any{
		"workspaceId": d.ws, "organizationId": benchOrg, "userId": user, "limit": userDataPageLimit,
	}, &out)
	return len(out.Data.Items), err
}
