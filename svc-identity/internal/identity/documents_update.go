package identity

import "context"

// UpdateDocuments changes the name, access type, disabled flag and
// metadata of documents that exist; others get success: false.
func (s *Service) UpdateDocuments(ctx context.Context, ws, orgID string, docs []DocumentInput) (map[string]ItemResult, error) {
	now := s.nowMilli()
	out := make(map[string]ItemResult, len(docs))
	for _, in := range docs {
		found, err := s.store.UpdateDocument(ctx, ws, orgID, in, now)
		if err != nil {
			return nil, err
		}
		if !found {
			out[in.ID] = ItemResult{ID: in.ID, Message: "Document does not exist.", Code: CodeNotFound}
			continue
		}
		out[in.ID] = succeeded(in.ID, "Document updated.")
	}
	return out, nil
}
