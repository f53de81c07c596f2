package identity

import "context"

// DeleteDocuments removes documents with their memberships; unknown ones
// get success: false.
func (s *Service) DeleteDocuments(ctx context.Context, ws, orgID string, docIDs []string) (map[string]ItemResult, error) {
	out := make(map[string]ItemResult, len(docIDs))
	for _, id := range docIDs {
		found, err := s.store.DeleteDocument(ctx, ws, orgID, id)
		if err != nil {
			return nil, err
		}
		if !found {
			out[id] = ItemResult{ID: id, Message: "Document does not exist.", Code: CodeNotFound}
			continue
		}
		out[id] = succeeded(id, "Document deleted.")
	}
	return out, nil
}
