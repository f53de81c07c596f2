package identity

import "context"

// UpdateDocuments changes the name, access type, disabled flag and
// metadata of documents that exist; others get success: false. The writes
// go in chunks of writeChunk, each one read and an update per distinct
// change, idempotent, so the same request again completes one that failed
// part way.
func (s *Service) UpdateDocuments(ctx context.Context, ws, orgID string, docs []DocumentInput) (map[string]ItemResult, error) {
	now := s.nowMilli()
	missing := map[string]bool{}
	err := inChunks(docs, func(chunk []DocumentInput) error {
		ids, err := s.store.UpdateDocuments(ctx, ws, orgID, chunk, now)
		for _, id := range ids {
			missing[id] = true
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	out := make(map[string]ItemResult, len(docs))
	for _, in := range docs {
		if missing[in.ID] {
			out[in.ID] = ItemResult{ID: in.ID, Message: "Document does not exist.", Code: CodeNotFound}
			continue
		}
		out[in.ID] = succeeded(in.ID, "Document updated.")
	}
	return out, nil
}
