package annotations

import (
	"context"
)

// DeleteRequest is the body of /v2/commentannotations/delete (§7.7).
// documentId alone deletes every annotation of the document. The agent
// filters AND-combine with each other and the rest (agent_filters.go).
type DeleteRequest struct {
	OrganizationID   string   `json:"organizationId"`
	DocumentID       string   `json:"documentId" validate:"required"`
	AnnotationIDs    []string `json:"annotationIds" validate:"max=@content.ids"`
	LocationIDs      []string `json:"locationIds" validate:"max=@content.ids"`
	UserIDs          []string `json:"userIds" validate:"max=@content.ids"`
	AgentID          string   `json:"agentId"`
	AgentSuggestions bool     `json:"agentSuggestions"`
	AgentURLs        []string `json:"agentUrls" validate:"max=@content.ids"`
}

// deleteBatch is how many annotations one round reads and deletes.
const deleteBatch = 200

// Delete removes the matching annotations with their comments, reactions
// and user-index rows.
func (s *Service) Delete(ctx context.Context, ws string, req DeleteRequest) (map[string]ItemResult, error) {
	if req.DocumentID == "" {
		return nil, invalid("field documentId is required")
	}
	agent, err := req.agentFilter()
	if err != nil {
		return nil, err
	}
	sc := Scope{ws, req.OrganizationID, req.DocumentID}
	q := Filters{req.AnnotationIDs, req.LocationIDs, req.UserIDs}.apply(sc.query())
	q.Agent = agent
	var deleted []string
	after := ""
	for {
		batch, err := s.deleteRound(ctx, q, after)
		if err != nil {
			return nil, err
		}
		for _, a := range batch {
			deleted = append(deleted, a.AnnotationID)
		}
		if len(batch) < deleteBatch {
			break
		}
		after = batch[len(batch)-1].Cursor()
	}
	out := notFoundResults(req.AnnotationIDs, deleted)
	for _, id := range deleted {
		out[id] = ItemResult{Success: true, ID: id, Message: "Annotation deleted."}
	}
	return out, nil
}

// deleteRound deletes the next batch of matches after sortKey `after`.
func (s *Service) deleteRound(ctx context.Context, q Query, after string) ([]Annotation, error) {
	batch, err := s.annotations.Page(ctx, q, after, true, deleteBatch)
	if err != nil {
		return nil, err
	}
	if len(batch) == 0 {
		return nil, nil
	}
	ids := make([]string, len(batch))
	for i := range batch {
		ids[i] = batch[i].AnnotationID
	}
	ws := batch[0].WorkspaceID
	if err := s.annotations.Delete(ctx, ws, ids); err != nil {
		return nil, err
	}
	events := s.batch()
	for i := range batch {
		s.feedRemove(ctx, &batch[i], batch[i].IndexedRows)
		events.add(ctx, EventAnnotationDelete, &batch[i], EventData{})
	}
	events.publish(ctx)
	return batch, nil
}
