package store

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/mongodb"
	"github.com/opencollab/backend/svc-activity/internal/activity"
)

// filterDoc is the query of f within workspace ws.
func filterDoc(ws string, f activity.Filter) bson.D {
	d := bson.D{{Key: "workspaceId", Value: ws}, {Key: "organizationId", Value: f.OrganizationID}}
	eq := func(field, v string) {
		if v != "" {
			d = append(d, bson.E{Key: field, Value: v})
		}
	}
	in := func(field string, vs []string) {
		if len(vs) > 0 {
			d = append(d, bson.E{Key: field, Value: bson.M{"$in": vs}})
		}
	}
	eq("documentId", f.DocumentID)
	eq("targetEntityId", f.TargetEntityID)
	eq("actionUserId", f.UserID)
	in("featureType", f.FeatureTypes)
	in("actionType", f.ActionTypes)
	in("id", f.IDs)
	if f.StartTime != nil || f.EndTime != nil {
		window := bson.M{}
		if f.StartTime != nil {
			window["$gte"] = *f.StartTime
		}
		if f.EndTime != nil {
			window["$lte"] = *f.EndTime
		}
		d = append(d, bson.E{Key: "timestamp", Value: window})
	}
	return d
}

// List implements activity.Store. The page starts strictly after q.After
// in (timestamp, id) order, so the database seeks instead of skipping.
func (m *Mongo) List(ctx context.Context, ws string, q activity.ListQuery) ([]activity.Record, error) {
	filter := filterDoc(ws, q.Filter)
	order := mongodb.Keyset{Field: "timestamp", IDField: "id", Desc: q.Desc}
	if c := q.After; c != nil {
		filter = append(filter, bson.E{Key: "$or", Value: order.After(c.Timestamp, c.ID)})
	}
	return m.find(ctx, filter, options.Find().SetSort(order.Sort()).SetLimit(int64(q.Limit)))
}

// ApplyPatches implements activity.Store: one bulk write of $set/$unset
// updates; a patch that sets nothing is skipped.
func (m *Mongo) ApplyPatches(ctx context.Context, ws, org string, patches []activity.Patch) error {
	models := make([]mongo.WriteModel, 0, len(patches))
	for _, p := range patches {
		update := patchUpdate(p)
		if len(update) == 0 {
			continue
		}
		models = append(models, mongo.NewUpdateOneModel().
			SetFilter(bson.D{{Key: "workspaceId", Value: ws}, {Key: "organizationId", Value: org}, {Key: "id", Value: p.ID}, notImmutable}).
			SetUpdate(update))
	}
	if len(models) == 0 {
		return nil
	}
	if _, err := m.coll.BulkWrite(ctx, models); err != nil {
		return fmt.Errorf("update activities: %w", err)
	}
	return nil
}

// patchUpdate is the $set/$unset document of p (see activity.Patch).
func patchUpdate(p activity.Patch) bson.M {
	set, unset := bson.M{}, bson.M{}
	text := func(field string, v []byte) {
		switch {
		case v == nil:
		case activity.IsClear(v):
			unset[field] = ""
		default:
			set[field] = string(v)
		}
	}
	str := func(field string, v *string) {
		switch {
		case v == nil:
		case *v == "":
			unset[field] = ""
		default:
			set[field] = *v
		}
	}
	text("changes", p.Changes)
	text("entityData", p.EntityData)
	text("entityTargetData", p.EntityTargetData)
	text("displayMessageTemplateData", p.DisplayMessageTemplateData)
	str("displayMessageTemplate", p.DisplayMessageTemplate)
	str("actionIcon", p.ActionIcon)
	update := bson.M{}
	if len(set) > 0 {
		update["$set"] = set
	}
	if len(unset) > 0 {
		update["$unset"] = unset
	}
	return update
}
