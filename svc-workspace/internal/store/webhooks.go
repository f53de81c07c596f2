package store

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/mongodb"
	"github.com/opencollab/backend/svc-workspace/internal/webhook"
)

const endpointsColl = "webhook_endpoints"

var (
	_ webhook.Store    = (*Mongo)(nil)
	_ webhook.Switches = (*Mongo)(nil)
)

// endpointDoc is a webhook endpoint with its sealed secrets. UIDKey makes
// the caller's uid unique per workspace with a plain unique index (FerretDB
// has no partial indexes): "uid:"+uid when set, else "id:"+id, which no
// other endpoint can hold.
type endpointDoc struct {
	ID             string            `bson:"_id"`
	WorkspaceID    string            `bson:"workspaceId"`
	UIDKey         string            `bson:"uidKey"`
	URL            string            `bson:"url"`
	Description    *string           `bson:"description,omitempty"`
	FilterTypes    []string          `bson:"filterTypes,omitempty"`
	Channels       []string          `bson:"channels,omitempty"`
	Disabled       bool              `bson:"disabled"`
	DisabledReason string            `bson:"disabledReason,omitempty"`
	DisabledAt     *time.Time        `bson:"disabledAt,omitempty"`
	RateLimit      *int              `bson:"rateLimit,omitempty"`
	UID            *string           `bson:"uid,omitempty"`
	Metadata       map[string]string `bson:"metadata,omitempty"`
	Secrets        []secretDoc       `bson:"secrets"`
	SecretsVersion int64             `bson:"secretsVersion"`
	CreatedAt      time.Time         `bson:"createdAt"`
	UpdatedAt      time.Time         `bson:"updatedAt"`
}

type secretDoc struct {
	Sealed    string     `bson:"sealed"`
	ExpiresAt *time.Time `bson:"expiresAt,omitempty"`
}

func (m *Mongo) endpoints() *mongo.Collection { return m.db.Collection(endpointsColl) }

// ensureWebhookIndexes creates the indexes of the webhook collections (the
// two configuration collections are keyed by workspace id and need none).
func (m *Mongo) ensureWebhookIndexes(ctx context.Context) error {
	return mongodb.EnsureIndexes(ctx, m.endpoints(),
		mongo.IndexModel{
			Keys:    bson.D{{Key: "workspaceId", Value: 1}, {Key: "uidKey", Value: 1}},
			Options: options.Index().SetUnique(true).SetName("workspaceId_uidKey_unique"),
		},
		mongo.IndexModel{
			Keys:    bson.D{{Key: "workspaceId", Value: 1}, {Key: "createdAt", Value: 1}, {Key: "_id", Value: 1}},
			Options: options.Index().SetName("workspaceId_createdAt_id"),
		})
}

func uidKey(e webhook.Endpoint) string {
	if e.UID != nil {
		return "uid:" + *e.UID
	}
	return "id:" + e.ID
}

func toEndpointDoc(r webhook.EndpointRecord) endpointDoc {
	secrets := make([]secretDoc, len(r.Secrets))
	for i, s := range r.Secrets {
		secrets[i] = secretDoc{Sealed: s.Sealed, ExpiresAt: s.ExpiresAt}
	}
	return endpointDoc{
		ID: r.ID, WorkspaceID: r.WorkspaceID, UIDKey: uidKey(r.Endpoint), URL: r.URL,
		Description: r.Description, FilterTypes: r.FilterTypes, Channels: r.Channels,
		Disabled: r.Disabled, RateLimit: r.RateLimit, UID: r.UID, Metadata: r.Metadata,
		Secrets: secrets, SecretsVersion: r.SecretsVersion, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
	}
}

func (d endpointDoc) toEndpoint() webhook.Endpoint {
	return webhook.Endpoint{
		ID: d.ID, WorkspaceID: d.WorkspaceID, URL: d.URL, Description: d.Description,
		FilterTypes: d.FilterTypes, Channels: d.Channels, Disabled: d.Disabled,
		RateLimit: d.RateLimit, UID: d.UID, CreatedAt: d.CreatedAt.UTC(), UpdatedAt: d.UpdatedAt.UTC(),
	}
}

func (d endpointDoc) toRecord() webhook.EndpointRecord {
	secrets := make([]webhook.Secret, len(d.Secrets))
	for i, s := range d.Secrets {
		secrets[i] = webhook.Secret{Sealed: s.Sealed, ExpiresAt: s.ExpiresAt}
	}
	return webhook.EndpointRecord{Endpoint: d.toEndpoint(), Metadata: d.Metadata, Secrets: secrets, SecretsVersion: d.SecretsVersion}
}

func byEndpointID(workspaceID, id string) bson.M {
	return bson.M{"_id": id, "workspaceId": workspaceID}
}

// InsertEndpoint implements webhook.EndpointStore.
func (m *Mongo) InsertEndpoint(ctx context.Context, r webhook.EndpointRecord) error {
	_, err := m.endpoints().InsertOne(ctx, toEndpointDoc(r))
	if mongodb.IsDuplicateKey(err) {
		return webhook.ErrDuplicate
	}
	if err != nil {
		return fmt.Errorf("insert endpoint: %w", err)
	}
	return nil
}

// EndpointByID implements webhook.EndpointStore.
func (m *Mongo) EndpointByID(ctx context.Context, workspaceID, id string) (webhook.EndpointRecord, error) {
	var d endpointDoc
	err := m.endpoints().FindOne(ctx, byEndpointID(workspaceID, id)).Decode(&d)
	if mongodb.IsNotFound(err) {
		return webhook.EndpointRecord{}, webhook.ErrNotFound
	}
	if err != nil {
		return webhook.EndpointRecord{}, fmt.Errorf("find endpoint: %w", err)
	}
	return d.toRecord(), nil
}

// ListEndpoints implements webhook.EndpointStore with a keyset on
// (createdAt, _id), so endpoints added or removed between pages cause
// neither gaps nor repeats.
func (m *Mongo) ListEndpoints(ctx context.Context, workspaceID string, q webhook.EndpointQuery) ([]webhook.Endpoint, error) {
	filter := bson.M{"workspaceId": workspaceID}
	order, at := mongodb.Keyset{Field: "createdAt", IDField: "_id"}, q.After
	if q.Before != nil {
		order.Desc, at = true, q.Before
	}
	if at != nil {
		filter["$or"] = order.After(at.CreatedAt, at.ID)
	}
	return mongodb.FindAll(ctx, m.endpoints(), filter, options.Find().SetSort(order.Sort()).SetLimit(int64(q.Limit)),
		"endpoints", endpointDoc.toEndpoint)
}

// ActiveEndpoints implements webhook.EndpointStore.
func (m *Mongo) ActiveEndpoints(ctx context.Context, workspaceID string) ([]webhook.EndpointRecord, error) {
	cur, err := m.endpoints().Find(ctx, bson.M{"workspaceId": workspaceID, "disabled": false},
		options.Find().SetSort(bson.D{{Key: "createdAt", Value: 1}, {Key: "_id", Value: 1}}))
	if err != nil {
		return nil, fmt.Errorf("find active endpoints: %w", err)
	}
	var docs []endpointDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("read active endpoints: %w", err)
	}
	out := make([]webhook.EndpointRecord, len(docs))
	for i, d := range docs {
		out[i] = d.toRecord()
	}
	return out, nil
}
