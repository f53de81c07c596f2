package activity

import (
	"context"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/pagetoken"
)

// Page sizes of get.
const (
	DefaultPageSize = 1000
	MaxPageSize     = 1000
)

// Query is /v2/activities/get.
type Query struct {
	Filter
	Desc      bool // newest first (the default of the wire format)
	PageSize  int  // 0: DefaultPageSize
	PageToken string
}

// Page is one page of get; NextPageToken is "" on the last page.
type Page struct {
	Records       []Record
	NextPageToken string
}

// Get returns one page of the organization's records matching q, ordered
// by timestamp (ties by id). The page token is bound to the workspace and
// to the query without its page size, and positions the next page by the
// last (timestamp, id) seen, so records added meanwhile cause neither gaps
// nor duplicates.
func (s *Service) Get(ctx context.Context, ws string, q Query) (Page, error) {
	if q.StartTime != nil && q.EndTime != nil && *q.StartTime > *q.EndTime {
		return Page{}, api.Errorf(api.InvalidArgument, "startTime must not be after endTime")
	}
	limit := q.PageSize
	if limit <= 0 {
		limit = DefaultPageSize
	}
	key := pagetoken.QueryKey("activities/get", struct {
		F    Filter `json:"f"`
		Desc bool   `json:"d"`
	}{q.Filter, q.Desc})
	after, err := pagetoken.LoadCursor[Cursor](ctx, s.pages, ws, key, q.PageToken)
	if err != nil {
		return Page{}, err
	}
	recs, err := s.store.List(ctx, ws, ListQuery{Filter: q.Filter, Desc: q.Desc, After: after, Limit: limit + 1})
	if err != nil {
		return Page{}, err
	}
	page := Page{Records: recs}
	if len(recs) > limit {
		page.Records = recs[:limit]
		last := page.Records[limit-1]
		if page.NextPageToken, err = pagetoken.SaveCursor(ctx, s.pages, ws, key, Cursor{Timestamp: last.Timestamp, ID: last.ID}); err != nil {
			return Page{}, err
		}
	}
	return page, nil
}
