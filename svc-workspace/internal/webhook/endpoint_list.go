package webhook

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/pagetoken"
)

// Page sizes of the endpoint list.
const (
	DefaultListLimit = 50
	MaxListLimit     = 250
)

// Cursor is a position in the (createdAt, id) order of endpoints.
type Cursor struct {
	CreatedAt time.Time
	ID        string
}

// EndpointQuery selects one page: the first Limit endpoints after After
// (from the start when nil) in ascending order, or, with Before, the Limit
// endpoints just before it in descending order.
type EndpointQuery struct {
	After, Before *Cursor
	Limit         int
}

// EndpointPage is one page of the list. Iterator is "" when Done;
// PrevIterator is "" on the first page.
type EndpointPage struct {
	Endpoints    []Endpoint
	Iterator     string
	PrevIterator string
	Done         bool
}

// pageCursor is what an iterator token stands for.
type pageCursor struct {
	Back      bool   `json:"b,omitempty"`
	CreatedAt int64  `json:"t"`
	ID        string `json:"id"`
}

// listScope fingerprints the list query (it has no filters: only the
// workspace binds a token).
var listScope = pagetoken.QueryKey("webhook/endpoints/get", nil)

// ListEndpoints returns one page of the workspace's endpoints, oldest
// first. limit 0 means DefaultListLimit. Iterators are opaque tokens bound
// to the workspace; an iterator moves forward, a prevIterator back.
func (s *Service) ListEndpoints(ctx context.Context, workspaceID string, limit int, iterator string) (EndpointPage, error) {
	if err := s.RequireEnabled(ctx, workspaceID); err != nil {
		return EndpointPage{}, err
	}
	if limit == 0 {
		limit = DefaultListLimit
	}
	if limit < 1 || limit > MaxListLimit {
		return EndpointPage{}, api.Errorf(api.InvalidArgument, "field limit must be between 1 and %d", MaxListLimit)
	}
	at, err := s.loadCursor(ctx, workspaceID, iterator)
	if err != nil {
		return EndpointPage{}, err
	}
	if at != nil && at.Back {
		return s.pageBack(ctx, workspaceID, at, limit)
	}
	return s.pageForward(ctx, workspaceID, at, limit)
}

func (s *Service) pageForward(ctx context.Context, workspaceID string, at *pageCursor, limit int) (EndpointPage, error) {
	q := EndpointQuery{Limit: limit + 1}
	if at != nil {
		q.After = at.position()
	}
	eps, err := s.store.ListEndpoints(ctx, workspaceID, q)
	if err != nil {
		return EndpointPage{}, fmt.Errorf("list endpoints: %w", err)
	}
	more := len(eps) > limit
	eps = eps[:min(len(eps), limit)]
	page := EndpointPage{Endpoints: eps, Done: !more}
	if more {
		if page.Iterator, err = s.saveCursor(ctx, workspaceID, cursorAt(eps[len(eps)-1], false)); err != nil {
			return EndpointPage{}, err
		}
	}
	if at != nil && len(eps) > 0 {
		if page.PrevIterator, err = s.saveCursor(ctx, workspaceID, cursorAt(eps[0], true)); err != nil {
			return EndpointPage{}, err
		}
	}
	return page, nil
}

func (s *Service) pageBack(ctx context.Context, workspaceID string, at *pageCursor, limit int) (EndpointPage, error) {
	eps, err := s.store.ListEndpoints(ctx, workspaceID, EndpointQuery{Before: at.position(), Limit: limit + 1})
	if err != nil {
		return EndpointPage{}, fmt.Errorf("list endpoints: %w", err)
	}
	if len(eps) == 0 {
		// Everything before was deleted meanwhile: the first page is what
		// comes before now.
		return s.pageForward(ctx, workspaceID, nil, limit)
	}
	earlier := len(eps) > limit
	eps = eps[:min(len(eps), limit)]
	slices.Reverse(eps)
	// At least the endpoint the prevIterator was made from follows.
	page := EndpointPage{Endpoints: eps}
	if page.Iterator, err = s.saveCursor(ctx, workspaceID, cursorAt(eps[len(eps)-1], false)); err != nil {
		return EndpointPage{}, err
	}
	if earlier {
		if page.PrevIterator, err = s.saveCursor(ctx, workspaceID, cursorAt(eps[0], true)); err != nil {
			return EndpointPage{}, err
		}
	}
	return page, nil
}

func cursorAt(e Endpoint, back bool) pageCursor {
	return pageCursor{Back: back, CreatedAt: e.CreatedAt.UnixMilli(), ID: e.ID}
}

func (c *pageCursor) position() *Cursor {
	return &Cursor{CreatedAt: time.UnixMilli(c.CreatedAt).UTC(), ID: c.ID}
}

func (s *Service) saveCursor(ctx context.Context, workspaceID string, c pageCursor) (string, error) {
	b, _ := json.Marshal(c)
	token, err := s.pages.Save(ctx, workspaceID, listScope, string(b))
	if err != nil {
		return "", fmt.Errorf("save iterator: %w", err)
	}
	return token, nil
}

func (s *Service) loadCursor(ctx context.Context, workspaceID, token string) (*pageCursor, error) {
	if token == "" {
		return nil, nil
	}
	raw, err := s.pages.Load(ctx, workspaceID, listScope, token)
	if api.IsStatus(err, api.InvalidArgument) {
		return nil, api.Errorf(api.InvalidArgument, "iterator is unknown, expired or from another workspace; start again without an iterator")
	}
	if err != nil {
		return nil, fmt.Errorf("load iterator: %w", err)
	}
	var c pageCursor
	if err := json.Unmarshal([]byte(raw), &c); err != nil || c.ID == "" {
		return nil, api.Errorf(api.InvalidArgument, "iterator is malformed; start again without an iterator")
	}
	return &c, nil
}
