package annotations

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/opencollab/backend/pkg/api"
)

// ItemResult is a per-item result of a batch write (§0).
type ItemResult struct {
	Success bool   `json:"success"`
	ID      string `json:"id"`
	Message string `json:"message"`
}

// UpdateRequest is the body of /v2/commentannotations/update (§7.6).
// updatedData is one object (a one-element array is accepted, as the
// spec's type says object[]); updateUsers renames user references
// (update_users.go). One of them is required. With updatedData at least one
// filter is required, so a forgotten filter never rewrites every annotation
// of a document; updateUsers alone may cover the whole document, since it
// changes nothing but the references to the users it names.
type UpdateRequest struct {
	OrganizationID string           `json:"organizationId" validate:"required"`
	DocumentID     string           `json:"documentId" validate:"required"`
	AnnotationIDs  []string         `json:"annotationIds" validate:"max=@content.ids"`
	LocationIDs    []string         `json:"locationIds" validate:"max=@content.ids"`
	UserIDs        []string         `json:"userIds" validate:"max=@content.ids"`
	UpdatedData    json.RawMessage  `json:"updatedData"`
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
	ch, err := parseChange(req)
	if err != nil {
		return nil, err
	}
	filters := Filters{req.AnnotationIDs, req.LocationIDs, req.UserIDs}
	if filters.empty() && ch.data != nil {
		return nil, invalid("one of annotationIds, locationIds or userIds is required with updatedData; an update never applies to a whole document")
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
			return ch.apply(a, s.nowMs())
		})
		switch {
		case errors.Is(err, errUnchanged): // none of the renamed users is in it
			out[id] = ItemResult{Success: true, ID: id, Message: "Annotation unchanged: it references none of the users in updateUsers."}
		case api.IsStatus(err, api.NotFound): // deleted meanwhile
			out[id] = ItemResult{ID: id, Message: "Annotation not found."}
		case api.IsStatus(err, api.InvalidArgument):
			out[id] = ItemResult{ID: id, Message: err.(*api.Error).Message}
		case err != nil:
			return nil, err
		default:
			out[id] = ItemResult{Success: true, ID: id, Message: "Annotation updated."}
			ev := EventData{}
			d := ch.data
			if d != nil && d.StatusUpdatedBy.set && d.StatusUpdatedBy.value != "" {
				ev.ActionUser = a.knownUser(d.StatusUpdatedBy.value)
			}
			typ := EventAnnotationUpdate
			if d != nil && d.Status != nil && old["id"] != a.Status["id"] {
				typ, ev.OldStatus, ev.NewStatus = EventStatusChange, old, a.Status
			}
			events.add(ctx, typ, a, ev)
		}
	}
	return out, nil
}

// change is what an update does to each annotation it matches: its
// updatedData (nil: none), then the renames of updateUsers, so that no
// reference to a renamed user is left, even one updatedData just set.
type change struct {
	data    *updatedData
	renames []userRename
}

func parseChange(req UpdateRequest) (change, error) {
	var (
		ch  change
		err error
	)
	if ch.renames, err = parseUpdateUsers(req.UpdateUsers); err != nil {
		return ch, err
	}
	if len(req.UpdatedData) == 0 || string(req.UpdatedData) == "null" {
		if len(ch.renames) == 0 {
			return ch, invalid("field updatedData is required (or updateUsers) and must be an object")
		}
		return ch, nil
	}
	ch.data, err = parseUpdatedData(req.UpdatedData)
	return ch, err
}

// apply changes a; errUnchanged when only renames were asked and a holds
// none of the users.
func (ch change) apply(a *Annotation, nowMs int64) error {
	if ch.data != nil {
		if err := ch.data.apply(a, nowMs); err != nil {
			return err
		}
	}
	renamed := renameUsers(a, ch.renames)
	if ch.data == nil {
		if !renamed {
			return errUnchanged
		}
		a.touch(nowMs) // updatedData's apply touches it otherwise; mutate re-derives after either
	}
	return nil
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
