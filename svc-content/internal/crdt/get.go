package crdt

import (
	"context"
	"errors"

	"github.com/opencollab/backend/pkg/api"
)

// Get returns the editor data of one editor id, or of every editor of the
// document when editorID is empty. An unknown editor id gives an empty
// list.
func (s *Service) Get(ctx context.Context, ws, org, doc, editorID string) ([]View, error) {
	if org == "" || doc == "" {
		return nil, api.Errorf(api.InvalidArgument, "fields organizationId and documentId are required")
	}
	var recs []Record
	if editorID == "" {
		var err error
		if recs, err = s.store.FindDocument(ctx, ws, org, doc); err != nil {
			return nil, err
		}
	} else {
		r, err := s.store.Find(ctx, ws, org, doc, editorID)
		switch {
		case errors.Is(err, ErrNotFound):
		case err != nil:
			return nil, err
		default:
			recs = append(recs, r)
		}
	}
	views := make([]View, len(recs))
	for i, r := range recs {
		views[i] = r.View()
	}
	return views, nil
}
