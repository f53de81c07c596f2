package notify

import (
	"context"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/pagetoken"
)

// Tab is a view of a user's notifications.
type Tab string

const (
	// TabAll is every notification the user can see: sent to the whole
	// organization or to them.
	TabAll Tab = "all"
	// TabForYou is what is for the user directly and still to read (or kept
	// once read, see persistReadForUsers).
	TabForYou Tab = "forYou"
)

// GetQuery is notifications/get.
type GetQuery struct {
	Filter    // RecipientID is not used: UserID and Tab say whose view
	UserID    string
	Tab       Tab  // "" is TabAll
	Paged     bool // v2: PageSize and PageToken apply; v1 returns at most UnpagedLimit
	Ascending bool
	PageSize  int // 0: DefaultPageSize
	PageToken string
}

// Page is one page of notifications/get.
type Page struct {
	Records       []Record
	NextPageToken string // "" on the last page
}

// getFilter is the part of GetQuery a page token is bound to.
type getFilter struct {
	OrganizationID string   `json:"o"`
	DocumentID     string   `json:"d"`
	LocationID     string   `json:"l"`
	IDs            []string `json:"n"`
	UserID         string   `json:"u"`
	Tab            Tab      `json:"t"`
	Ascending      bool     `json:"a"`
}

// Get lists notifications newest first (oldest first when Ascending). With
// a UserID it lists what that user sees on the tab and says whether they
// read each one; without, every notification of the organization or
// document.
func (s *Service) Get(ctx context.Context, ws string, q GetQuery) (Page, error) {
	if q.Tab == TabForYou && q.UserID == "" {
		return Page{}, api.Errorf(api.InvalidArgument, "tab forYou needs userId")
	}
	lq := q.listQuery()
	if !q.Paged {
		lq.Limit = UnpagedLimit
		ns, err := s.store.ListNotifications(ctx, ws, lq)
		if err != nil {
			return Page{}, err
		}
		return Page{Records: records(ns, q.UserID)}, nil
	}
	key := queryKey("notifications/get", getFilter{
		OrganizationID: q.OrganizationID, DocumentID: q.DocumentID, LocationID: q.LocationID, IDs: q.IDs,
		UserID: q.UserID, Tab: q.tab(), Ascending: q.Ascending,
	})
	after, err := pagetoken.LoadCursor[Cursor](ctx, s.pages, ws, key, q.PageToken)
	if err != nil {
		return Page{}, err
	}
	size := q.PageSize
	if size <= 0 {
		size = DefaultPageSize
	}
	lq.After, lq.Limit = after, size+1
	ns, err := s.store.ListNotifications(ctx, ws, lq)
	if err != nil {
		return Page{}, err
	}
	page := Page{}
	if len(ns) > size {
		ns = ns[:size]
		if page.NextPageToken, err = pagetoken.SaveCursor(ctx, s.pages, ws, key, Cursor{Timestamp: ns[size-1].Timestamp, ID: ns[size-1].ID}); err != nil {
			return Page{}, err
		}
	}
	page.Records = records(ns, q.UserID)
	return page, nil
}

func (q GetQuery) tab() Tab {
	if q.Tab == "" {
		return TabAll
	}
	return q.Tab
}

func (q GetQuery) listQuery() ListQuery {
	lq := ListQuery{Filter: q.Filter, Ascending: q.Ascending}
	lq.RecipientID = "" // the tab says how the user is concerned
	switch {
	case q.tab() == TabForYou:
		lq.ForYou = q.UserID
	case q.UserID != "":
		lq.VisibleTo = q.UserID
	}
	return lq
}
