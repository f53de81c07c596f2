package memory

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/pagetoken"
	"github.com/opencollab/backend/svc-memory/internal/judgment"
)

// judgments/query limits (adjacent-operations §13).
const (
	DefaultQueryLimit = 20
	MaxQueryLimit     = 100
)

// QueryRequest is /v2/memory/judgments/query: a metadata filter, newest
// first, paged by pageToken.
type QueryRequest struct {
	OrganizationID string
	DocumentID     string // only with OrganizationID; alone it is ignored
	Decision       string
	JudgeType      string
	ContentType    string
	ReviewerID     string
	AnnotationID   string
	Limit          *int
	PageToken      string
}

// QueryResponse is one page; NextPageToken is "" on the last page.
type QueryResponse struct {
	Results       []Record
	NextPageToken string
}

// Validate returns every issue of r.
func (r QueryRequest) Validate() []Issue {
	var issues []Issue
	if r.Decision != "" && !slices.Contains(judgment.Decisions, r.Decision) {
		issues = append(issues, Issue{"decision", fmt.Sprintf("has unknown value %q; allowed: %s",
			r.Decision, strings.Join(judgment.Decisions, ", "))})
	}
	if r.JudgeType != "" && r.JudgeType != judgment.JudgeHuman && r.JudgeType != judgment.JudgeAgent {
		issues = append(issues, Issue{"judgeType", fmt.Sprintf("has unknown value %q; allowed: human, agent", r.JudgeType)})
	}
	if r.AnnotationID != "" && r.OrganizationID == "" {
		issues = append(issues, Issue{"annotationId", "requires organizationId"})
	}
	if r.Limit != nil && (*r.Limit < 1 || *r.Limit > MaxQueryLimit) {
		issues = append(issues, Issue{"limit", fmt.Sprintf("must be between 1 and %d", MaxQueryLimit)})
	}
	return issues
}

func (r QueryRequest) filter() Filter {
	f := Filter{OrganizationID: r.OrganizationID, JudgeType: r.JudgeType, ContentType: r.ContentType,
		ReviewerID: r.ReviewerID, AnnotationID: r.AnnotationID}
	if r.OrganizationID != "" {
		f.DocumentID = r.DocumentID
	}
	if r.Decision != "" {
		f.Decisions = []string{r.Decision}
	}
	return f
}

// Query lists judgments newest first. A page of one thread (annotationId)
// comes back oldest first: the newest limit records, in reading order;
// the next page continues with older ones.
func (s *Service) Query(ctx context.Context, ws string, r QueryRequest) (QueryResponse, error) {
	if err := Invalid(r.Validate()); err != nil {
		return QueryResponse{}, err
	}
	limit := DefaultQueryLimit
	if r.Limit != nil {
		limit = *r.Limit
	}
	f := r.filter()
	key := pagetoken.QueryKey("memory/judgments/query", f)
	after, err := s.loadCursor(ctx, ws, key, r.PageToken)
	if err != nil {
		return QueryResponse{}, err
	}
	js, err := s.Store.List(ctx, ws, ListQuery{Filter: f, Desc: true, After: after, Limit: limit + 1})
	if err != nil {
		return QueryResponse{}, err
	}
	var resp QueryResponse
	if len(js) > limit {
		js = js[:limit]
		last := js[limit-1]
		if resp.NextPageToken, err = s.saveCursor(ctx, ws, key, Cursor{CreatedAt: last.CreatedAt, RecordID: last.RecordID}); err != nil {
			return QueryResponse{}, err
		}
	}
	if r.AnnotationID != "" {
		slices.Reverse(js)
	}
	resp.Results = records(js)
	return resp, nil
}

func (s *Service) loadCursor(ctx context.Context, ws, key, token string) (*Cursor, error) {
	if token == "" {
		return nil, nil
	}
	raw, err := s.Pages.Load(ctx, ws, key, token)
	if apiErr, ok := api.AsError(err); ok && apiErr.Status == api.InvalidArgument {
		return nil, Invalid([]Issue{{"pageToken", strings.TrimPrefix(apiErr.Message, "pageToken ")}})
	}
	if err != nil {
		return nil, err
	}
	var c Cursor
	if err := json.Unmarshal([]byte(raw), &c); err != nil {
		return nil, Invalid([]Issue{{"pageToken", "is malformed; start again without a pageToken"}})
	}
	return &c, nil
}

func (s *Service) saveCursor(ctx context.Context, ws, key string, c Cursor) (string, error) {
	b, err := json.Marshal(c)
	if err != nil {
		return "", fmt.Errorf("encode cursor: %w", err)
	}
	return s.Pages.Save(ctx, ws, key, string(b))
}
