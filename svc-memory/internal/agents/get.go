package agents

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/pagetoken"
)

// Filters of the agent list.
const (
	FilterDefaultOnly = "defaultOnly"
	FilterCustomOnly  = "customOnly"
)

// DefaultPageSize is the agent list's page size when none is given.
const DefaultPageSize = 100

// ListQuery is the list form of /v2/agents/get.
type ListQuery struct {
	Filter    string // "", defaultOnly or customOnly
	GroupID   string
	PageSize  int // 0: DefaultPageSize
	PageToken string
}

// Row is an agent as lists show it: identity only.
type Row struct {
	ID             string `json:"id"`
	Name           string `json:"name"`
	Description    string `json:"description"`
	Enabled        bool   `json:"enabled"`
	ManagedBy      string `json:"managedBy"`
	Version        int    `json:"version,omitempty"`
	System         bool   `json:"system,omitempty"`
	ExecutionCount int    `json:"executionCount"`
	LastExecutedAt *int64 `json:"lastExecutedAt"` // null: never executed (no runs are recorded here)

	sortKey string
}

// Page is one page of the list; NextPageToken is "" on the last one.
type Page struct {
	Agents        []Row
	NextPageToken string
}

// Get returns one agent with its current behavioural configuration
// (custom) or its built-in description.
func (s *Service) Get(ctx context.Context, ws, id string) (map[string]any, error) {
	if b, ok := builtin(id); ok {
		states, err := s.store.BuiltinEnabled(ctx, ws)
		if err != nil {
			return nil, err
		}
		return map[string]any{
			"id": b.ID, "name": b.Name, "description": b.Description, "enabled": builtinEnabled(states, b.ID),
			"managedBy": managedByBuiltin, "system": true, "essentialDefault": b.EssentialDefault,
		}, nil
	}
	a, found, err := s.store.Find(ctx, ws, id)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, notFound(id)
	}
	versions, err := s.store.Versions(ctx, ws, id)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	if i := slices.IndexFunc(versions, func(v Version) bool { return v.Version == a.Version }); i >= 0 {
		if err := json.Unmarshal(redact(versions[i].Config), &out); err != nil {
			return nil, fmt.Errorf("decode agent configuration: %w", err)
		}
	}
	out["id"], out["name"], out["description"], out["enabled"] = a.ID, a.Name, a.Description, a.Enabled
	out["version"], out["managedBy"], out["createdAt"] = a.Version, managedByCustomer, a.CreatedAt
	if a.Metadata != nil {
		out["metadata"] = a.Metadata
	}
	return out, nil
}

func builtinEnabled(states map[string]bool, id string) bool {
	if on, set := states[id]; set {
		return on
	}
	return builtinEnabledDefault
}

// List returns a page of the workspace's agents: built-ins first (in
// their fixed order), then custom agents oldest first.
func (s *Service) List(ctx context.Context, ws string, q ListQuery) (Page, error) {
	if q.GroupID != "" {
		return Page{}, api.Errorf(api.NotFound, "agent group %q does not exist", q.GroupID)
	}
	size := q.PageSize
	if size <= 0 {
		size = DefaultPageSize
	}
	key := pagetoken.QueryKey("agents/get", q.Filter)
	after := ""
	if q.PageToken != "" {
		var err error
		if after, err = s.pages.Load(ctx, ws, key, q.PageToken); err != nil {
			return Page{}, err
		}
	}
	rows, err := s.rows(ctx, ws, q.Filter)
	if err != nil {
		return Page{}, err
	}
	start := slices.IndexFunc(rows, func(r Row) bool { return r.sortKey > after })
	if start < 0 {
		start = len(rows)
	}
	page := Page{Agents: rows[start:min(start+size, len(rows))]}
	if start+size < len(rows) {
		if page.NextPageToken, err = s.pages.Save(ctx, ws, key, page.Agents[len(page.Agents)-1].sortKey); err != nil {
			return Page{}, err
		}
	}
	return page, nil
}

// rows lists every agent the filter selects, in listing order. Agents
// marked metadata.internal are left out of lists.
func (s *Service) rows(ctx context.Context, ws, filter string) ([]Row, error) {
	rows := []Row{} // never null: an empty list is []
	if filter != FilterCustomOnly {
		states, err := s.store.BuiltinEnabled(ctx, ws)
		if err != nil {
			return nil, err
		}
		for i, b := range Builtins {
			rows = append(rows, Row{ID: b.ID, Name: b.Name, Description: b.Description, Enabled: builtinEnabled(states, b.ID),
				ManagedBy: managedByBuiltin, System: true, sortKey: fmt.Sprintf("b:%04d", i)})
		}
	}
	if filter == FilterDefaultOnly {
		return rows, nil
	}
	custom, err := s.store.List(ctx, ws)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(custom, func(a, b Agent) int {
		if c := cmp.Compare(a.CreatedAt, b.CreatedAt); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	for _, a := range custom {
		if isInternal(a.Metadata) {
			continue
		}
		rows = append(rows, Row{ID: a.ID, Name: a.Name, Description: a.Description, Enabled: a.Enabled,
			ManagedBy: managedByCustomer, Version: a.Version, sortKey: fmt.Sprintf("c:%016d:%s", a.CreatedAt, a.ID)})
	}
	return rows, nil
}

func isInternal(metadata json.RawMessage) bool {
	var m struct {
		Internal bool `json:"internal"`
	}
	return json.Unmarshal(metadata, &m) == nil && m.Internal
}
