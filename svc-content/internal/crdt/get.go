package crdt

import (
	"context"
	"errors"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// Query is how get reads the editors.
type Query struct {
	Format string // FormatDefault, FormatProseMirror or FormatYjs
	// StateVector (format yjs only): update holds only what a client at
	// this Yjs state vector lacks.
	StateVector []byte
}

// Get returns the editor data of one editor id, or of every editor of the
// document when editorID is empty. An unknown editor id gives an empty
// list.
func (s *Service) Get(ctx context.Context, ws, org, doc, editorID string, q Query) ([]View, error) {
	if org == "" || doc == "" {
		return nil, api.Errorf(api.InvalidArgument, "fields organizationId and documentId are required")
	}
	if err := checkQuery(q); err != nil {
		return nil, err
	}
	docs, err := s.findCurrent(ctx, ws, org, doc, editorID)
	if err != nil {
		return nil, err
	}
	views := make([]View, len(docs))
	for i, c := range docs {
		if views[i], err = c.view(q); err != nil {
			return nil, err
		}
		s.compactIfLong(ws, c)
	}
	return views, nil
}

func checkQuery(q Query) error {
	if err := checkFormat(q.Format); err != nil {
		return err
	}
	if q.StateVector == nil {
		return nil
	}
	if q.Format != FormatYjs {
		return api.Errorf(api.InvalidArgument, "field stateVector needs format %q", FormatYjs)
	}
	if _, err := yjs.DecodeStateVector(q.StateVector); err != nil {
		return api.Errorf(api.InvalidArgument, "field stateVector is not a Yjs state vector: %v", err)
	}
	return nil
}

// findCurrent reads one editor's document, or every editor's of the
// document (log first, as loadCurrent explains).
func (s *Service) findCurrent(ctx context.Context, ws, org, doc, editorID string) ([]current, error) {
	if editorID != "" {
		c, err := s.loadCurrent(ctx, ws, Editor{org, doc, editorID})
		if errors.Is(err, ErrNotFound) {
			return []current{}, nil
		}
		return []current{c}, err
	}
	log, err := s.store.FindDocumentLog(ctx, ws, org, doc)
	if err != nil {
		return nil, err
	}
	states, err := s.store.FindDocumentStates(ctx, ws, org, doc)
	if err != nil {
		return nil, err
	}
	byEditor := map[string][]LogEntry{}
	for _, e := range log {
		byEditor[e.EditorID] = append(byEditor[e.EditorID], e)
	}
	docs := make([]current, len(states))
	for i, st := range states {
		docs[i] = current{state: st, log: unmerged(byEditor[st.EditorID], st)}
	}
	return docs, nil
}
