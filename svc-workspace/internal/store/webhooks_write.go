package store

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/mongodb"
	"github.com/opencollab/backend/svc-workspace/internal/webhook"
)

// UpdateEndpoint implements webhook.EndpointStore: one atomic update that
// sets what was sent and unsets what was sent as null.
func (m *Mongo) UpdateEndpoint(ctx context.Context, workspaceID, id string, ch webhook.EndpointChanges, at time.Time) (webhook.Endpoint, error) {
	set, unset := bson.M{"updatedAt": at}, bson.M{}
	if ch.URL != nil {
		set["url"] = *ch.URL
	}
	patch(set, unset, "description", ch.Description)
	patch(set, unset, "filterTypes", ch.FilterTypes)
	patch(set, unset, "channels", ch.Channels)
	patch(set, unset, "rateLimit", ch.RateLimit)
	patch(set, unset, "metadata", ch.Metadata)
	if ch.Disabled != nil {
		set["disabled"] = *ch.Disabled
		if !*ch.Disabled {
			unset["disabledReason"], unset["disabledAt"] = "", ""
		}
	}
	update := bson.M{"$set": set}
	if len(unset) > 0 {
		update["$unset"] = unset
	}
	var d endpointDoc
	err := m.endpoints().FindOneAndUpdate(ctx, byEndpointID(workspaceID, id), update,
		options.FindOneAndUpdate().SetReturnDocument(options.After)).Decode(&d)
	if mongodb.IsNotFound(err) {
		return webhook.Endpoint{}, webhook.ErrNotFound
	}
	if err != nil {
		return webhook.Endpoint{}, fmt.Errorf("update endpoint: %w", err)
	}
	return d.toEndpoint(), nil
}

func patch[T any](set, unset bson.M, field string, p webhook.Patch[T]) {
	switch {
	case !p.Set:
	case p.Value == nil:
		unset[field] = ""
	default:
		set[field] = *p.Value
	}
}

// ReplaceEndpointSecrets implements webhook.EndpointStore.
func (m *Mongo) ReplaceEndpointSecrets(ctx context.Context, workspaceID, id string, version int64, secrets []webhook.Secret, at time.Time) error {
	docs := make([]secretDoc, len(secrets))
	for i, s := range secrets {
		docs[i] = secretDoc{Sealed: s.Sealed, ExpiresAt: s.ExpiresAt}
	}
	filter := byEndpointID(workspaceID, id)
	filter["secretsVersion"] = version
	res, err := m.endpoints().UpdateOne(ctx, filter, bson.M{"$set": bson.M{
		"secrets": docs, "secretsVersion": version + 1, "secretsRotatedAt": at,
	}})
	if err != nil {
		return fmt.Errorf("replace endpoint secrets: %w", err)
	}
	if res.MatchedCount > 0 {
		return nil
	}
	n, err := m.endpoints().CountDocuments(ctx, byEndpointID(workspaceID, id))
	if err != nil {
		return fmt.Errorf("count endpoint: %w", err)
	}
	if n == 0 {
		return webhook.ErrNotFound
	}
	return webhook.ErrConflict
}

// DisableEndpoint implements webhook.EndpointStore.
func (m *Mongo) DisableEndpoint(ctx context.Context, workspaceID, id, reason string, at time.Time) error {
	res, err := m.endpoints().UpdateOne(ctx, byEndpointID(workspaceID, id), bson.M{"$set": bson.M{
		"disabled": true, "disabledReason": reason, "disabledAt": at, "updatedAt": at,
	}})
	if err != nil {
		return fmt.Errorf("disable endpoint: %w", err)
	}
	if res.MatchedCount == 0 {
		return webhook.ErrNotFound
	}
	return nil
}

// DeleteEndpoint implements webhook.EndpointStore.
func (m *Mongo) DeleteEndpoint(ctx context.Context, workspaceID, id string) error {
	res, err := m.endpoints().DeleteOne(ctx, byEndpointID(workspaceID, id))
	if err != nil {
		return fmt.Errorf("delete endpoint: %w", err)
	}
	if res.DeletedCount == 0 {
		return webhook.ErrNotFound
	}
	return nil
}
