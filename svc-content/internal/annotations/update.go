package annotations

import (
	"context"
	"encoding/json"

	"github.com/opencollab/backend/pkg/api"
)

// ItemResult is a per-item result of a batch write (§0).
type ItemResult struct {
	Success bool   `json:"success"`
	ID      string `json:"id"`
	Message string `json:"message"`
}

// UpdateRequest is the body of /v2/commentannotations/update (§7.6). At
// least one filter is required, so a forgotten filter never rewrites every
// annotation of a document. updatedData is one object (a one-element array
// is accepted, as the spec's type says object[]). updateUsers is refused.
type UpdateRequest struct {
	OrganizationID string           `json:"organizationId" validate:"required"`
	DocumentID     string           `json:"documentId" validate:"required"`
	AnnotationIDs  []string         `json:"annotationIds" validate:"max=@content.ids"`
	LocationIDs    []string         `json:"locationIds" validate:"max=@content.ids"`
	UserIDs        []string         `json:"userIds" validate:"max=@content.ids"`
	UpdatedData    json.RawMessage  `json:"updatedData" validate:"required"`
	UpdateUsers    []map[string]any `json:"updateUsers" validate:"max=@content.users"`
}

// Filters are the annotation filters shared by update and delete; they
// AND-combine.
type Filters struct {
	AnnotationIDs, LocationIDs, UserIDs []string
}

func (f Filters) empty() bool {
	return len(f.AnnotationIDs) == 0 && len(f.LocationIDs) == 0 && len(f.UserIDs) == 0
}

// apply narrows q to the annotations the filters match.
func (f Filters) apply(q Query) Query {
	q.AnnotationIDs, q.LocationIDs, q.AuthorIDs = f.AnnotationIDs, f.LocationIDs, f.UserIDs
	return q
}

// Update applies updatedData to every annotation the filters match.
func (s *Service) Update(ctx context.Context, ws string, req UpdateRequest) (map[string]ItemResult, error) {
	if len(req.UpdateUsers) > 0 {
		return nil, invalid("field updateUsers is not supported by this service")
	}
	filters := Filters{req.AnnotationIDs, req.LocationIDs, req.UserIDs}
	if filters.empty() {
		return nil, invalid("one of annotationIds, locationIds or userIds is required; an update never applies to a whole document")
	}
	d, err := parseUpdatedData(req.UpdatedData)
	if err != nil {
		return nil, err
	}
	sc := Scope{ws, req.OrganizationID, req.DocumentID}
	ids, err := s.matchingIDs(ctx, filters.apply(sc.query()))
	if err != nil {
		return nil, err
	}
	out := notFoundResults(req.AnnotationIDs, ids)
	events := s.batch()
	defer events.publish(ctx) // also for the items written before a failure
	for _, id := range ids {
		var old map[string]any
		a, err := s.mutate(ctx, sc, id, func(a *Annotation) error {
			old = a.Status
			return d.apply(a, s.nowMs())
		})
		switch {
		case api.IsStatus(err, api.NotFound): // deleted meanwhile
			out[id] = ItemResult{ID: id, Message: "Annotation not found."}
		case api.IsStatus(err, api.InvalidArgument):
			out[id] = ItemResult{ID: id, Message: err.(*api.Error).Message}
		case err != nil:
			return nil, err
		default:
			out[id] = ItemResult{Success: true, ID: id, Message: "Annotation updated."}
			ev := EventData{}
			if d.StatusUpdatedBy.set && d.StatusUpdatedBy.value != "" {
				ev.ActionUser = a.knownUser(d.StatusUpdatedBy.value)
			}
			typ := EventAnnotationUpdate
			if d.Status != nil && old["id"] != a.Status["id"] {
				typ, ev.OldStatus, ev.NewStatus = EventStatusChange, old, a.Status
			}
			events.add(ctx, typ, a, ev)
		}
	}
	return out, nil
}

// matchingIDs lists the annotationIds a query matches.
func (s *Service) matchingIDs(ctx context.Context, q Query) ([]string, error) {
	return s.annotations.IDs(ctx, q)
}

// notFoundResults starts a result map with success:false for every
// requested id that is not among the matched ones.
func notFoundResults(requested, matched []string) map[string]ItemResult {
	out := map[string]ItemResult{}
	for _, id := range requested {
		out[id] = ItemResult{ID: id, Message: "Annotation not found."}
	}
	for _, id := range matched {
		delete(out, id)
	}
	return out
}
