package activity

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/opencollab/backend/pkg/api"
)

// MaxPerCall is the most records one add or update accepts.
const MaxPerCall = 500

// idPrefix marks generated activity ids.
const idPrefix = "act_"

// NewActivity is one record of /v2/activities/add as the client sent it;
// enum and required-field checks of the wire format have already run.
type NewActivity struct {
	ID                         string
	FeatureType                string
	ActionType                 string
	ActionUser                 json.RawMessage
	TargetEntityID             string
	TargetSubEntityID          string
	Changes                    json.RawMessage
	EntityData                 json.RawMessage
	EntityTargetData           json.RawMessage
	DisplayMessageTemplate     string
	DisplayMessageTemplateData json.RawMessage
	ActionIcon                 string
	IsActivityResolverUsed     bool
}

// Add validates every activity first (one bad record writes nothing),
// then writes them all keyed by (workspace, id) and publishes one
// activity.add event per record in one call. A record whose id exists is
// replaced wholesale, with a fresh timestamp, unless nothing but the
// timestamp would change: then it stays as stored, with the timestamp of
// its first add (a retry is cheap and moves nothing). When one is
// immutable the call fails and nothing is written.
func (s *Service) Add(ctx context.Context, ws, org, doc string, in []NewActivity) error {
	if len(in) > MaxPerCall {
		return api.Errorf(api.InvalidArgument, "field activities accepts at most %d items", MaxPerCall)
	}
	now := s.now().UnixMilli()
	recs := make([]Record, 0, len(in))
	for i, a := range in {
		r, err := newRecord(fmt.Sprintf("activities[%d]", i), a)
		if err != nil {
			return err
		}
		r.OrganizationID, r.DocumentID, r.Timestamp = org, doc, now
		recs = append(recs, r)
	}
	recs = lastPerID(recs)
	var locked *ImmutableError
	switch err := s.store.ReplaceAll(ctx, ws, recs); {
	case errors.As(err, &locked):
		return api.Errorf(api.FailedPrecondition, "activity %q is immutable and cannot be overwritten", locked.ID)
	case errors.Is(err, ErrImmutable):
		// Only a concurrent writer outside this API can get here.
		return api.Errorf(api.FailedPrecondition, "an activity of this call is immutable and cannot be overwritten")
	case err != nil:
		return err
	}
	return s.publish(ctx, ws, EventAdd, recs)
}

// newRecord checks the rules the tags cannot express and normalises the
// free-form JSON; field names the record in messages.
func newRecord(field string, a NewActivity) (Record, error) {
	userID, err := actionUserID(field+".actionUser", a.ActionUser)
	if err != nil {
		return Record{}, err
	}
	if a.FeatureType == featureCustom && strings.TrimSpace(a.TargetEntityID) == "" {
		return Record{}, api.Errorf(api.InvalidArgument, "field %s.targetEntityId is required when featureType is custom", field)
	}
	r := Record{
		ID: a.ID, FeatureType: a.FeatureType, ActionType: a.ActionType, ActionUserID: userID,
		TargetEntityID: a.TargetEntityID, TargetSubEntityID: a.TargetSubEntityID,
		DisplayMessageTemplate: a.DisplayMessageTemplate, ActionIcon: a.ActionIcon,
		IsActivityResolverUsed: a.IsActivityResolverUsed,
	}
	if r.ID == "" {
		r.ID = idPrefix + rand.Text()
	}
	if r.ActionUser, err = freeJSON(field+".actionUser", a.ActionUser, kindObject); err != nil {
		return Record{}, err
	}
	if err := normalizeFree(field, &r, a.Changes, a.EntityData, a.EntityTargetData, a.DisplayMessageTemplateData); err != nil {
		return Record{}, err
	}
	return r, nil
}

// normalizeFree checks and stores the free-form fields shared by add and
// update into r.
func normalizeFree(field string, r *Record, changes, entity, target, templateData json.RawMessage) error {
	var err error
	if r.Changes, err = changesJSON(field+".changes", changes); err != nil {
		return err
	}
	if r.EntityData, err = freeJSON(field+".entityData", entity, kindAny); err != nil {
		return err
	}
	if r.EntityTargetData, err = freeJSON(field+".entityTargetData", target, kindAny); err != nil {
		return err
	}
	r.DisplayMessageTemplateData, err = freeJSON(field+".displayMessageTemplateData", templateData, kindObject)
	return err
}

// lastPerID keeps one record per id, the last one sent, at the position of
// the first: the same outcome as writing them in order, in fewer writes.
func lastPerID(recs []Record) []Record {
	at := make(map[string]int, len(recs))
	out := make([]Record, 0, len(recs))
	for _, r := range recs {
		if i, seen := at[r.ID]; seen {
			out[i] = r
			continue
		}
		at[r.ID] = len(out)
		out = append(out, r)
	}
	return out
}
