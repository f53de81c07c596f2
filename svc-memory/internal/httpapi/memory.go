package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-memory/internal/memory"
)

// The memory operations return result without status and message
// (rest-interface, conventions): api.Result{Bare: true}.

func handleSearch(svc *memory.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		data, err := readData(c.Request)
		if err != nil {
			return nil, err
		}
		var r reader
		req := memory.SearchRequest{
			Query:          r.str(data, "query", "query"),
			EmbeddingType:  r.str(data, "embeddingType", "embeddingType"),
			Scope:          r.str(data, "scope", "scope"),
			OrganizationID: r.str(data, "organizationId", "organizationId"),
			DocumentID:     r.str(data, "documentId", "documentId"),
			Limit:          r.integer(data, "limit", "limit"),
			Filters:        r.filters(data),
			RecencyDays:    r.integer(data, "recencyDays", "recencyDays"),
		}
		if err := memory.Invalid(append(r.checked(data), req.Validate()...)); err != nil {
			return nil, err
		}
		ctx := c.Request.Context()
		resp, err := svc.Search(ctx, internalauth.WorkspaceID(ctx), req)
		if err != nil {
			return nil, err
		}
		return (&api.Result{Bare: true}).With("results", resp.Results).
			With("totalInScope", resp.TotalInScope).With("searchLatencyMs", resp.SearchLatencyMs), nil
	})
}

func handleAsk(svc *memory.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		data, err := readData(c.Request)
		if err != nil {
			return nil, err
		}
		var r reader
		req := memory.AskRequest{
			Question:       r.str(data, "question", "question"),
			OrganizationID: r.str(data, "organizationId", "organizationId"),
			DocumentID:     r.str(data, "documentId", "documentId"),
			Filters:        r.filters(data),
			RecencyDays:    r.integer(data, "recencyDays", "recencyDays"),
		}
		if err := memory.Invalid(append(r.checked(data), req.Validate()...)); err != nil {
			return nil, err
		}
		ctx := c.Request.Context()
		resp, err := svc.Ask(ctx, internalauth.WorkspaceID(ctx), req)
		if err != nil {
			return nil, err
		}
		return (&api.Result{Bare: true}).With("answer", resp.Answer).With("citations", resp.Citations).
			With("confidence", resp.Confidence).With("recordsSearched", resp.RecordsSearched), nil
	})
}

func handleSuggest(svc *memory.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		data, err := readData(c.Request)
		if err != nil {
			return nil, err
		}
		var r reader
		req := memory.SuggestRequest{
			Query:          r.str(data, "query", "query"),
			OrganizationID: r.str(data, "organizationId", "organizationId"),
			DocumentID:     r.str(data, "documentId", "documentId"),
		}
		if err := memory.Invalid(append(r.checked(data), req.Validate()...)); err != nil {
			return nil, err
		}
		ctx := c.Request.Context()
		resp, err := svc.Suggest(ctx, internalauth.WorkspaceID(ctx), req)
		if err != nil {
			return nil, err
		}
		return (&api.Result{Bare: true}).With("primary", resp.Primary).With("conflict", resp.Conflict), nil
	})
}

func handleJudgmentsQuery(svc *memory.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		data, err := readData(c.Request)
		if err != nil {
			return nil, err
		}
		var r reader
		req := memory.QueryRequest{
			OrganizationID: r.str(data, "organizationId", "organizationId"),
			DocumentID:     r.str(data, "documentId", "documentId"),
			Decision:       r.str(data, "decision", "decision"),
			JudgeType:      r.str(data, "judgeType", "judgeType"),
			ContentType:    r.str(data, "contentType", "contentType"),
			ReviewerID:     r.str(data, "reviewerId", "reviewerId"),
			AnnotationID:   r.str(data, "annotationId", "annotationId"),
			Limit:          r.integer(data, "limit", "limit"),
			PageToken:      r.str(data, "pageToken", "pageToken"),
		}
		if err := memory.Invalid(append(r.checked(data), req.Validate()...)); err != nil {
			return nil, err
		}
		ctx := c.Request.Context()
		page, err := svc.Query(ctx, internalauth.WorkspaceID(ctx), req)
		if err != nil {
			return nil, err
		}
		var next any // null on the last page
		if page.NextPageToken != "" {
			next = page.NextPageToken
		}
		return (&api.Result{Bare: true}).With("results", page.Results).
			With("total", len(page.Results)).With("nextPageToken", next), nil
	})
}
