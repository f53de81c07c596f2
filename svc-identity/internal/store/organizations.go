package store

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/opencollab/backend/svc-identity/internal/identity"
)

type orgRecord struct {
	WorkspaceID      string         `bson:"workspaceId"`
	OrganizationID   string         `bson:"organizationId"`
	OrganizationName string         `bson:"organizationName"`
	Disabled         bool           `bson:"disabled"`
	Metadata         map[string]any `bson:"metadata,omitempty"`
	CreatedAt        int64          `bson:"createdAt"`
	LastUpdated      int64          `bson:"lastUpdated"`
}

func (r orgRecord) domain() identity.Organization {
	return identity.Organization{
		ID: r.OrganizationID, Name: r.OrganizationName, Disabled: r.Disabled, Metadata: r.Metadata,
		CreatedAt: r.CreatedAt, LastUpdated: r.LastUpdated,
	}
}

func orgKey(ws, orgID string) bson.D {
	return bson.D{{Key: "workspaceId", Value: ws}, {Key: "organizationId", Value: orgID}}
}

// GetOrganization implements identity.OrganizationStore.
func (s *Store) GetOrganization(ctx context.Context, ws, orgID string) (identity.Organization, error) {
	var r orgRecord
	if err := findOne(ctx, s.orgs, orgKey(ws, orgID), &r); err != nil {
		return identity.Organization{}, err
	}
	return r.domain(), nil
}

// EnsureOrganization implements identity.OrganizationStore.
func (s *Store) EnsureOrganization(ctx context.Context, ws, orgID string, now int64) error {
	_, err := upsert(ctx, s.orgs, orgKey(ws, orgID), bson.M{"$setOnInsert": bson.M{
		"organizationName": "", "disabled": false, "createdAt": now, "lastUpdated": now,
	}})
	return err
}

// SaveOrganization implements identity.OrganizationStore.
func (s *Store) SaveOrganization(ctx context.Context, ws string, in identity.OrganizationInput, now int64) (bool, error) {
	set, onInsert := orgChanges(in, now)
	onInsert["createdAt"] = now
	return upsert(ctx, s.orgs, orgKey(ws, in.ID), bson.M{"$set": set, "$setOnInsert": onInsert})
}

// UpdateOrganization implements identity.OrganizationStore.
func (s *Store) UpdateOrganization(ctx context.Context, ws string, in identity.OrganizationInput, now int64) (bool, error) {
	set, _ := orgChanges(in, now)
	return updateOne(ctx, s.orgs, orgKey(ws, in.ID), bson.M{"$set": set})
}

// orgChanges splits an input into the fields it sets and the defaults a new
// record gets for the fields it leaves out.
func orgChanges(in identity.OrganizationInput, now int64) (set, onInsert bson.M) {
	set, onInsert = bson.M{"lastUpdated": now}, bson.M{}
	if in.Name != nil {
		set["organizationName"] = *in.Name
	} else {
		onInsert["organizationName"] = ""
	}
	if in.Disabled != nil {
		set["disabled"] = *in.Disabled
	} else {
		onInsert["disabled"] = false
	}
	metadataSet(set, "metadata", in.Metadata)
	return set, onInsert
}

// ListOrganizations implements identity.OrganizationStore.
func (s *Store) ListOrganizations(ctx context.Context, ws string, q identity.OrganizationQuery) ([]identity.Organization, error) {
	filter := bson.D{{Key: "workspaceId", Value: ws}}
	id := bson.M{}
	if q.IDs != nil {
		id["$in"] = q.IDs
	}
	if q.After != "" {
		id["$gt"] = q.After
	}
	if len(id) > 0 {
		filter = append(filter, bson.E{Key: "organizationId", Value: id})
	}
	recs, err := findAll[orgRecord](ctx, s.orgs, filter, pageOptions(q.Limit, "organizationId"))
	if err != nil {
		return nil, err
	}
	out := make([]identity.Organization, len(recs))
	for i, r := range recs {
		out[i] = r.domain()
	}
	return out, nil
}

// DeleteOrganizations implements identity.OrganizationStore with one read
// of the organizations, one delete per collection of what is in them and
// one delete of the records by _id. Dependants go first and the records
// last, so a retry after a failure finds the organizations and finishes.
func (s *Store) DeleteOrganizations(ctx context.Context, ws string, orgIDs []string) ([]string, error) {
	if len(orgIDs) == 0 {
		return nil, nil
	}
	inOrgs := bson.D{{Key: "workspaceId", Value: ws}, {Key: "organizationId", Value: bson.M{"$in": orgIDs}}}
	found, ids, err := idsByField(ctx, s.orgs, inOrgs, "organizationId")
	if err != nil {
		return nil, err
	}
	for _, coll := range []*mongo.Collection{s.groupMembers, s.groups, s.members, s.docs, s.folders} {
		if _, err := deleteMany(ctx, coll, inOrgs); err != nil {
			return nil, err
		}
	}
	return found, deleteByID(ctx, s.orgs, ids)
}
