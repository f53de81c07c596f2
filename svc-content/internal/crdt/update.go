package crdt

import (
	"context"
	"errors"
	"time"

	"github.com/opencollab/backend/pkg/api"
)

// maxUpdateAttempts bounds the retries of an update that lost the race to
// a concurrent one.
const maxUpdateAttempts = 5

// maxReadAge bounds the time between reading the latest version and
// inserting the next one, so an insert never lands in the slot of a
// version whose marker was already deleted (markerRetention).
const maxReadAge = time.Minute

// Update replaces an editor's content with a new version written after the
// stored state, so peers that hold the old state converge to it.
// NOT_FOUND when the editor id has no data; INVALID_ARGUMENT when data does
// not match type, type differs from the stored type, or contentKey (when
// given) differs from the stored key.
func (s *Service) Update(ctx context.Context, ws string, ed Editor, c Content, userID string) error {
	if err := checkEditor(ed); err != nil {
		return err
	}
	if c.ContentKey != "" {
		if err := checkContentKey(c.ContentKey); err != nil {
			return err
		}
	}
	p, err := parseContent(c.Type, c.Data)
	if err != nil {
		return err
	}
	for attempt := 0; attempt < maxUpdateAttempts; attempt++ {
		readAt := time.Now()
		r, err := s.store.Find(ctx, ws, ed.OrganizationID, ed.DocumentID, ed.EditorID)
		if errors.Is(err, ErrNotFound) {
			return api.Errorf(api.NotFound, "no CRDT data for editor id %s; create it with /v2/crdt/add", ed.EditorID)
		} else if err != nil {
			return err
		}
		if err := compatible(r, c); err != nil {
			return err
		}
		if r, err = s.nextVersion(r, p, userID); err != nil {
			return err
		}
		if time.Since(readAt) > maxReadAge {
			attempt-- // stalled, not beaten by another update: read again
			continue
		}
		switch err := s.store.AppendVersion(ctx, ws, r); {
		case errors.Is(err, ErrConflict):
			continue // another update came first: write after it
		case err != nil:
			return err
		}
		return s.publish(ctx, ws, EventUpdate, r)
	}
	return api.Errorf(api.Unavailable, "editor id %s is being updated concurrently; retry", ed.EditorID)
}

// compatible refuses an update that would change what the stored
// document is.
func compatible(r Record, c Content) error {
	if c.Type != r.Type {
		return api.Errorf(api.InvalidArgument, "type %s does not match the stored type %s of editor id %s", c.Type, r.Type, r.EditorID)
	}
	if c.ContentKey != "" && c.ContentKey != r.ContentKey {
		return api.Errorf(api.InvalidArgument, "contentKey %s does not match the stored contentKey %s of editor id %s", c.ContentKey, r.ContentKey, r.EditorID)
	}
	return nil
}

// nextVersion is r with p written as its next version.
func (s *Service) nextVersion(r Record, p parsed, userID string) (Record, error) {
	doc := r.Doc
	update, err := setContent(&doc, p)
	if err != nil {
		return Record{}, err
	}
	r.Doc, r.Update, r.Data = doc, update, p.data
	r.Version++
	r.LastUpdate = lastUpdateTime(s.now())
	r.LastUpdatedBy = userID
	return r, nil
}
