package annotations

import (
	"context"
	"slices"

	"github.com/opencollab/backend/pkg/pagetoken"
)

// Page sizes of get.
const (
	DefaultPageSize = 1000
	MaxPageSize     = 1000
)

// GetRequest is the body of /v2/commentannotations/get (§7.5). folderId
// selects the folder's own documents, as svc-identity lists them
// (get_folder.go); the agent filters select agent annotations, one filter
// per request (agent_filters.go).
type GetRequest struct {
	OrganizationID    string   `json:"organizationId" validate:"required"`
	DocumentID        string   `json:"documentId"`
	DocumentIDs       []string `json:"documentIds" validate:"max=@content.queryIds"`
	GroupByDocumentID bool     `json:"groupByDocumentId"`
	FolderID          string   `json:"folderId"`
	LocationIDs       []string `json:"locationIds" validate:"max=@content.queryIds"`
	AnnotationIDs     []string `json:"annotationIds" validate:"max=@content.queryIds"`
	UserIDs           []string `json:"userIds" validate:"max=@content.queryIds"`
	MentionedUserIDs  []string `json:"mentionedUserIds" validate:"max=@content.queryIds"`
	ResolvedBy        string   `json:"resolvedBy"`
	StatusIDs         []string `json:"statusIds" validate:"max=@content.queryIds"`
	StatusID          string   `json:"statusId"`
	UpdatedAfter      *int64   `json:"updatedAfter"`
	UpdatedBefore     *int64   `json:"updatedBefore"`
	CreatedAfter      *int64   `json:"createdAfter"`
	CreatedBefore     *int64   `json:"createdBefore"`
	Order             string   `json:"order" validate:"oneof=asc desc"`
	PageSize          *int     `json:"pageSize" validate:"min=1,max=1000"`
	PageToken         string   `json:"pageToken"`

	AgentID          string `json:"agentId"`
	ExecutionID      string `json:"executionId"`
	AgentType        string `json:"agentType"`
	AgentSource      string `json:"agentSource"`
	AgentSuggestions bool   `json:"agentSuggestions"`
	AgentComments    bool   `json:"agentComments"`
}

// GetResult is one page: Data is []*AnnotationView (nil = a requested
// annotationId that does not exist) or, grouped, map documentId →
// []AnnotationView. NextPageToken is "" on the last page.
type GetResult struct {
	Data          any
	NextPageToken string
}

func (r *GetRequest) validate() error {
	if _, err := r.agentFilter(); err != nil {
		return err
	}
	if err := oneOf(r.Order, "order", "asc", "desc"); err != nil {
		return err
	}
	if r.PageSize != nil && (*r.PageSize < 1 || *r.PageSize > MaxPageSize) {
		return invalid("field pageSize must be between 1 and %d", MaxPageSize)
	}
	for name, list := range map[string][]string{"documentIds": r.DocumentIDs, "locationIds": r.LocationIDs,
		"annotationIds": r.AnnotationIDs, "userIds": r.UserIDs, "mentionedUserIds": r.MentionedUserIDs, "statusIds": r.StatusIDs} {
		if len(list) > 30 {
			return invalid("field %s accepts at most 30 items", name)
		}
	}
	return nil
}

// query is the query of the request without its page cursor.
func (r *GetRequest) query(ws string) Query {
	docs := slices.Clone(r.DocumentIDs)
	if r.DocumentID != "" && !slices.Contains(docs, r.DocumentID) {
		docs = append(docs, r.DocumentID)
	}
	agent, _ := r.agentFilter() // checked by validate
	statuses := slices.Clone(r.StatusIDs)
	if r.StatusID != "" {
		statuses = append(statuses, r.StatusID)
	}
	return Query{
		WorkspaceID: ws, OrganizationID: r.OrganizationID, DocumentIDs: docs, AnnotationIDs: r.AnnotationIDs,
		LocationIDs: r.LocationIDs, AuthorIDs: r.UserIDs, MentionedUserIDs: r.MentionedUserIDs, StatusIDs: statuses,
		ResolvedBy: r.ResolvedBy, Agent: agent,
		Created: Range{r.CreatedAfter, r.CreatedBefore}, Updated: Range{r.UpdatedAfter, r.UpdatedBefore},
	}
}

// Get returns one page of annotations, newest change first unless order is
// asc. Pages are keyset ranges on (lastUpdated, annotationId).
func (s *Service) Get(ctx context.Context, ws string, req GetRequest) (GetResult, error) {
	if err := req.validate(); err != nil {
		return GetResult{}, err
	}
	size := DefaultPageSize
	if req.PageSize != nil {
		size = *req.PageSize
	}
	unpaged := req
	unpaged.PageSize, unpaged.PageToken = nil, ""
	qkey := pagetoken.QueryKey("commentannotations/get", unpaged)
	filter, matchable, err := s.filterOf(ctx, ws, &req)
	if err != nil {
		return GetResult{}, err
	}
	var cursor string
	if req.PageToken != "" {
		if cursor, err = s.pages.Load(ctx, ws, qkey, req.PageToken); err != nil {
			return GetResult{}, err
		}
	}
	page, more, err := s.findPage(ctx, filter, matchable, cursor, req.Order == "asc", size)
	if err != nil {
		return GetResult{}, err
	}
	var res GetResult
	if more {
		if res.NextPageToken, err = s.pages.Save(ctx, ws, qkey, page[len(page)-1].Cursor()); err != nil {
			return GetResult{}, err
		}
	}
	if req.GroupByDocumentID {
		res.Data = groupByDocument(page)
		return res, nil
	}
	list := make([]*AnnotationView, 0, len(page))
	for i := range page {
		v := page[i].View()
		list = append(list, &v)
	}
	if req.PageToken == "" && len(req.AnnotationIDs) > 0 {
		missing, err := s.missing(ctx, filter, req.AnnotationIDs, matchable)
		if err != nil {
			return GetResult{}, err
		}
		for range missing {
			list = append(list, nil)
		}
	}
	res.Data = list
	return res, nil
}

// filterOf is the query of req in workspace ws, its folder resolved to
// its documents; matchable is false when it can match nothing.
func (s *Service) filterOf(ctx context.Context, ws string, req *GetRequest) (q Query, matchable bool, err error) {
	q = req.query(ws)
	if req.FolderID == "" {
		return q, true, nil
	}
	matchable, err = s.inFolder(ctx, &q, req.FolderID)
	return q, matchable, err
}

// findPage reads up to size annotations after cursor and reports whether
// more follow.
func (s *Service) findPage(ctx context.Context, q Query, matchable bool, cursor string, asc bool, size int) ([]Annotation, bool, error) {
	if !matchable {
		return nil, false, nil
	}
	page, err := s.annotations.Page(ctx, q, cursor, asc, size+1)
	if err != nil {
		return nil, false, err
	}
	if len(page) > size {
		return page[:size], true, nil
	}
	return page, false, nil
}

// missing lists the requested ids no annotation of the query has; none
// has any when the query can match nothing.
func (s *Service) missing(ctx context.Context, q Query, ids []string, matchable bool) ([]string, error) {
	var found []string
	if matchable {
		var err error
		if found, err = s.annotations.IDs(ctx, q); err != nil {
			return nil, err
		}
	}
	exists := make(map[string]bool, len(found))
	for _, id := range found {
		exists[id] = true
	}
	var out []string
	for _, id := range ids {
		if !exists[id] {
			exists[id] = true // one null per distinct id
			out = append(out, id)
		}
	}
	return out, nil
}

func groupByDocument(page []Annotation) map[string][]AnnotationView {
	out := map[string][]AnnotationView{}
	for i := range page {
		out[page[i].DocumentID] = append(out[page[i].DocumentID], page[i].View())
	}
	return out
}
