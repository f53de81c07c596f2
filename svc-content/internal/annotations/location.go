package annotations

import (
	"context"
	"errors"

	"github.com/opencollab/backend/pkg/api"
)

// RewriteLocation changes the location with id oldID on every annotation of
// the document (/v1/organizations/documents/locations/update, through
// internal/locations): merge sets newLoc's keys on the stored location,
// otherwise newLoc replaces it. It returns how many annotations carried the
// location; each changed one publishes comment_annotation.update.
func (s *Service) RewriteLocation(ctx context.Context, workspaceID, orgID, docID, oldID string, newLoc map[string]any, merge bool) (int64, error) {
	if !merge {
		if err := checkLocation(newLoc, "migrate.newLocation"); err != nil {
			return 0, err
		}
	}
	if id, set := newLoc["id"]; merge && set {
		if s, ok := id.(string); !ok || s == "" {
			return 0, invalid("field migrate.newLocation.id must be a non-empty string")
		}
	}
	sc := Scope{workspaceID, orgID, docID}
	ids, err := s.matchingIDs(ctx, Filters{LocationIDs: []string{oldID}}.apply(sc.query()))
	if err != nil {
		return 0, err
	}
	var matched int64
	events := s.batch()
	defer events.publish(ctx)
	for _, id := range ids {
		a, err := s.mutate(ctx, sc, id, func(a *Annotation) error {
			if current, _ := a.Location["id"].(string); current != oldID {
				return errUnchanged // moved on since it was matched
			}
			a.Location = rewritten(a.Location, newLoc, merge)
			a.touch(s.nowMs())
			return nil
		})
		if errors.Is(err, errUnchanged) || api.IsStatus(err, api.NotFound) {
			continue
		}
		if err != nil {
			return matched, err
		}
		matched++
		events.add(ctx, EventAnnotationUpdate, a, EventData{})
	}
	return matched, nil
}

func rewritten(old, newLoc map[string]any, merge bool) map[string]any {
	out := map[string]any{}
	if merge {
		for k, v := range old {
			out[k] = v
		}
	}
	for k, v := range newLoc {
		out[k] = v
	}
	return out
}
