package annotations

import (
	"context"
	"fmt"
)

// CountRequest is the body of /v2/commentannotations/count/get.
type CountRequest struct {
	OrganizationID string   `json:"organizationId" validate:"required"`
	DocumentIDs    []string `json:"documentIds" validate:"required,max=@content.queryIds"`
	UserID         string   `json:"userId" validate:"required"`
	StatusIDs      []string `json:"statusIds" validate:"max=@content.queryIds"`
}

// DocumentCount is one document's entry of count/get.
type DocumentCount struct {
	Total  int `json:"total"`
	Unread int `json:"unread"`
}

// Count reports, per requested document, how many annotations it has and
// how many of them are unread for the user. Read receipts live in the
// client SDK, not here, so "unread" means: the newest comment of the
// thread is someone else's (the user has not answered since the thread
// last moved). A document without annotations reports zeros.
func (s *Service) Count(ctx context.Context, ws string, req CountRequest) (map[string]DocumentCount, error) {
	for i, id := range req.DocumentIDs {
		if id == "" {
			return nil, invalid("field documentIds[%d] must not be empty", i)
		}
	}
	found, err := s.annotations.Authors(ctx, Query{WorkspaceID: ws, OrganizationID: req.OrganizationID,
		DocumentIDs: req.DocumentIDs, StatusIDs: req.StatusIDs})
	if err != nil {
		return nil, fmt.Errorf("count annotations: %w", err)
	}
	out := make(map[string]DocumentCount, len(req.DocumentIDs))
	for _, id := range req.DocumentIDs {
		out[id] = DocumentCount{}
	}
	for _, a := range found {
		c := out[a.DocumentID]
		c.Total++
		if n := len(a.Comments); n > 0 && userID(a.Comments[n-1].From) != req.UserID {
			c.Unread++
		}
		out[a.DocumentID] = c
	}
	return out, nil
}
