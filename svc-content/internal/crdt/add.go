package crdt

import (
	"context"
	"errors"

	"github.com/opencollab/backend/pkg/api"
	yjs "github.com/opencollab/backend/svc-content/internal/crdt/legacyyjs"
)

// Editor names the editor data of one editor instance.
type Editor struct {
	OrganizationID string
	DocumentID     string
	EditorID       string
}

// Add stores the first version of an editor's data: INVALID_ARGUMENT when
// data does not match type, ALREADY_EXISTS when the editor id has data.
// userID (optional) is recorded as lastUpdatedBy.
func (s *Service) Add(ctx context.Context, ws string, ed Editor, c Content, userID string) error {
	if err := checkEditor(ed); err != nil {
		return err
	}
	key := c.ContentKey
	if key == "" {
		key = DefaultContentKey
	}
	if err := checkContentKey(key); err != nil {
		return err
	}
	p, err := parseContent(c.Type, c.Data)
	if err != nil {
		return err
	}
	doc := yjs.NewDoc(newClientID(), key, p.kind)
	update, err := setContent(doc, p)
	if err != nil {
		return err
	}
	r := Record{
		OrganizationID: ed.OrganizationID, DocumentID: ed.DocumentID, EditorID: ed.EditorID,
		Type: c.Type, ContentKey: key, Data: p.data, Update: update, Doc: *doc,
		Version: 1, LastUpdate: lastUpdateTime(s.now()), LastUpdatedBy: userID,
	}
	if err := s.store.Insert(ctx, ws, r); errors.Is(err, ErrExists) {
		return api.Errorf(api.AlreadyExists, "CRDT data already exists for editor id %s", ed.EditorID)
	} else if err != nil {
		return err
	}
	return s.publish(ctx, ws, EventAdd, r)
}

// checkEditor repeats the required-field checks for callers other than
// the HTTP handlers.
func checkEditor(ed Editor) error {
	for _, f := range []struct{ name, v string }{
		{"organizationId", ed.OrganizationID}, {"documentId", ed.DocumentID}, {"editorId", ed.EditorID},
	} {
		if f.v == "" {
			return api.Errorf(api.InvalidArgument, "field %s is required", f.name)
		}
	}
	return nil
}
