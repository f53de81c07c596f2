package identity

import "context"

// DeleteDocuments removes documents with their memberships in chunks of
// writeChunk, a few store commands each; unknown ones get success: false.
// A retry after a failure part way finds the documents left and finishes.
func (s *Service) DeleteDocuments(ctx context.Context, ws, orgID string, docIDs []string) (map[string]ItemResult, error) {
	found, err := deleteInChunks(docIDs, func(chunk []string) ([]string, error) {
		return s.store.DeleteDocuments(ctx, ws, orgID, chunk)
	})
	if err != nil {
		return nil, err
	}
	out := make(map[string]ItemResult, len(docIDs))
	for _, id := range docIDs {
		if !found[id] {
			out[id] = ItemResult{ID: id, Message: "Document does not exist.", Code: CodeNotFound}
			continue
		}
		out[id] = succeeded(id, "Document deleted.")
	}
	return out, nil
}
