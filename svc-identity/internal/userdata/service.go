package userdata

import (
	"context"
	"encoding/json"

	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/svc-identity/internal/identity"
)

// PageLimit is the most items of each array one page holds.
const PageLimit = 100

// The downstream routes.
const (
	ContentPath       = "/internal/userdata/content"
	NotificationsPath = "/internal/userdata/notifications"
)

// principal is identity's signed name towards the downstream services.
var principal = internalauth.Service("identity")

// Caller calls one service's /internal routes (pkg/svcclient.Client).
type Caller interface {
	Call(ctx context.Context, path, principal string, in, out any) error
}

// PageTokens turns cursors into opaque tokens bound to a workspace and a
// query (pkg/pagetoken.Store).
type PageTokens interface {
	Save(ctx context.Context, workspaceID, queryKey, cursor string) (string, error)
	Load(ctx context.Context, workspaceID, queryKey, token string) (string, error)
}

// Profiles describes the user as identity knows them (identity.Service).
type Profiles interface {
	UserOverview(ctx context.Context, ws, orgID, userID string) (*identity.UserOverview, error)
}

// Service answers users/data/get.
type Service struct {
	content, notify Caller
	pages           PageTokens
	profiles        Profiles
}

// NewService returns a Service reading from content (svc-content) and
// notify (svc-notify).
func NewService(content, notify Caller, pages PageTokens, profiles Profiles) *Service {
	return &Service{content: content, notify: notify, pages: pages, profiles: profiles}
}

// Query asks for one page of a user's data.
type Query struct {
	WorkspaceID    string
	OrganizationID string
	UserID         string
	PageToken      string // "" for the first page
}

// Page is one page of a user's data. The arrays are never nil; their items
// are passed on exactly as the owning service returned them.
type Page struct {
	User          *identity.UserOverview // nil when identity knows nothing of the user
	Comments      []json.RawMessage
	Reactions     []json.RawMessage
	Recordings    []json.RawMessage
	Notifications []json.RawMessage
	NextPageToken string // "" once every array is exhausted
}

func emptyPage() Page {
	return Page{
		Comments: []json.RawMessage{}, Reactions: []json.RawMessage{},
		Recordings: []json.RawMessage{}, Notifications: []json.RawMessage{},
	}
}
