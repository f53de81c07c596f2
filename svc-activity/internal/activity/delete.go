package activity

import (
	"context"
	"strings"

	"github.com/opencollab/backend/pkg/api"
)

// deleteChunk bounds the ids of one delete command.
const deleteChunk = 1000

// Selection is /v2/activities/delete: the organization plus at least one
// of the document, the target entity and the ids, combined with AND.
type Selection struct {
	OrganizationID string
	DocumentID     string
	TargetEntityID string
	IDs            []string
}

// Delete removes the matching records and reports per id: every deleted
// record success:true, an immutable one and a requested id that matched
// nothing success:false. One activity.delete event per deleted record
// carries it as it was.
func (s *Service) Delete(ctx context.Context, ws string, sel Selection) (map[string]ItemResult, error) {
	if strings.TrimSpace(sel.DocumentID) == "" && strings.TrimSpace(sel.TargetEntityID) == "" && len(sel.IDs) == 0 {
		return nil, api.Errorf(api.InvalidArgument, "at least one of documentId, targetEntityId or activityIds is required")
	}
	matched, err := s.store.FindMatching(ctx, ws, Filter{
		OrganizationID: sel.OrganizationID, DocumentID: sel.DocumentID,
		TargetEntityID: sel.TargetEntityID, IDs: sel.IDs,
	})
	if err != nil {
		return nil, err
	}
	results := make(map[string]ItemResult, len(matched)+len(sel.IDs))
	for _, id := range sel.IDs {
		results[id] = ItemResult{Message: msgNotFound}
	}
	var doomed []Record
	for _, r := range matched {
		if r.Immutable {
			results[r.ID] = ItemResult{Message: msgImmutableNoDelete}
			continue
		}
		doomed = append(doomed, r)
	}
	for start := 0; start < len(doomed); start += deleteChunk {
		chunk := doomed[start:min(start+deleteChunk, len(doomed))]
		if err := s.deleteChunk(ctx, ws, sel.OrganizationID, chunk); err != nil {
			return nil, err
		}
		for _, r := range chunk {
			results[r.ID] = ItemResult{Success: true, Message: msgDeleted}
		}
	}
	return results, nil
}

// deleteChunk deletes recs and publishes their events, so a failure later
// leaves no deleted record without its event.
func (s *Service) deleteChunk(ctx context.Context, ws, org string, recs []Record) error {
	ids := make([]string, len(recs))
	for i, r := range recs {
		ids[i] = r.ID
	}
	if err := s.store.DeleteByIDs(ctx, ws, org, ids); err != nil {
		return err
	}
	return s.publish(ctx, ws, EventDelete, recs)
}
