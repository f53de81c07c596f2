package crdt

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/opencollab/backend/pkg/api"
	yjs "github.com/opencollab/backend/svc-content/internal/crdt/legacyyjs"
	engine "github.com/opencollab/backend/svc-content/internal/yjs"
	"github.com/opencollab/backend/svc-content/internal/yjs/lib0"
)

// The realtime door (internal/realtime) reads and writes the same records
// as the REST operations: LoadUpdate gives a document's state as one Yjs
// update, AppendUpdate merges an update a client sent into it. Until the
// store keeps a merged state and a log of updates (issue 9), an append
// writes the next version with the merged update and the content read
// back from it.

// LoadUpdate returns the editor's stored state (nil when it has no data).
func (s *Service) LoadUpdate(ctx context.Context, ws string, ed Editor) ([]byte, error) {
	r, err := s.store.Find(ctx, ws, ed.OrganizationID, ed.DocumentID, ed.EditorID)
	if errors.Is(err, ErrNotFound) {
		return nil, nil
	}
	return r.Update, err
}

// AppendUpdate merges update into the editor's document. An editor without
// data is created by its first update that has content: the update's root
// (the first by name that holds content) becomes the contentKey and what
// it holds decides the type (child elements: xml; keyed entries: map;
// characters: text; other values: array). An update with no content yet
// is not stored (there is nothing to keep).
func (s *Service) AppendUpdate(ctx context.Context, ws string, ed Editor, update []byte, userID string) error {
	for attempt := 0; attempt < maxUpdateAttempts; attempt++ {
		r, err := s.store.Find(ctx, ws, ed.OrganizationID, ed.DocumentID, ed.EditorID)
		if errors.Is(err, ErrNotFound) {
			switch err := s.createFromUpdate(ctx, ws, ed, update, userID); {
			case errors.Is(err, ErrExists):
				continue // another replica created it first: append on top
			default:
				return err
			}
		} else if err != nil {
			return err
		}
		merged, err := engine.MergeUpdates(r.Update, update)
		if err != nil {
			return api.Errorf(api.InvalidArgument, "malformed Yjs update: %v", err)
		}
		if r.Data, err = contentOf(merged, r.ContentKey, r.Type); err != nil {
			return err
		}
		r.Update = merged
		r.Version++
		r.LastUpdate = lastUpdateTime(s.now())
		r.LastUpdatedBy = userID
		switch err := s.store.AppendVersion(ctx, ws, r); {
		case errors.Is(err, ErrConflict):
			continue
		case err != nil:
			return err
		}
		return nil
	}
	return api.Errorf(api.Unavailable, "editor id %s is being updated concurrently; retry", ed.EditorID)
}

func (s *Service) createFromUpdate(ctx context.Context, ws string, ed Editor, update []byte, userID string) error {
	key, typ, err := rootOf(update)
	if err != nil || key == "" {
		return err
	}
	data, err := contentOf(update, key, typ)
	if err != nil {
		return err
	}
	r := Record{
		OrganizationID: ed.OrganizationID, DocumentID: ed.DocumentID, EditorID: ed.EditorID,
		Type: typ, ContentKey: key, Data: data, Update: update, Doc: *yjs.NewDoc(newClientID(), key, yjs.Kind(typ)),
		Version: 1, LastUpdate: lastUpdateTime(s.now()), LastUpdatedBy: userID,
	}
	return s.store.Insert(ctx, ws, r)
}

// rootOf finds the root that holds content and its type ("" when none).
func rootOf(update []byte) (key, typ string, err error) {
	probe := func() (*engine.Doc, error) {
		d := engine.NewDoc(1)
		return d, d.ApplyUpdate(update)
	}
	d, err := probe()
	if err != nil {
		return "", "", api.Errorf(api.InvalidArgument, "malformed Yjs update: %v", err)
	}
	names := d.Roots()
	slices.Sort(names)
	for _, name := range names {
		if d, _ := probe(); d.Map(name).Len() > 0 {
			return name, "map", nil
		}
		d, _ := probe()
		for _, c := range d.XmlFragment(name).Children() {
			switch c.(type) {
			case *engine.XmlElement, *engine.XmlText:
				return name, "xml", nil
			}
		}
		if d, _ := probe(); d.Text(name).Len() > 0 {
			return name, "text", nil
		}
		if d, _ := probe(); d.Array(name).Len() > 0 {
			return name, "array", nil
		}
	}
	return "", "", nil
}

// contentOf reads the content of root key as get returns it: the text,
// the map or array as JSON, the XML as its string.
func contentOf(update []byte, key, typ string) ([]byte, error) {
	d := engine.NewDoc(1)
	if err := d.ApplyUpdate(update); err != nil {
		return nil, api.Errorf(api.InvalidArgument, "malformed Yjs update: %v", err)
	}
	var v any
	switch typ {
	case "text":
		v = d.Text(key).String()
	case "map":
		v = d.Map(key).ToJSON()
	case "array":
		v = d.Array(key).ToJSON()
	default:
		v = d.XmlFragment(key).ToString()
	}
	s, _, err := lib0.StringifyJSON(v)
	if err != nil {
		return nil, fmt.Errorf("render content: %w", err)
	}
	return []byte(s), nil
}
