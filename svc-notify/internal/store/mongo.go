// Package store persists notifications, notification configurations and
// finished document migrations in MongoDB.
package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/keylock"
	"github.com/opencollab/backend/pkg/mongodb"
)

// Collection names.
const (
	notificationsColl = "notifications"
	configsColl       = "notification_configs"
	migrationsColl    = "migrations"
)

// Mongo is the MongoDB store of the notification service.
type Mongo struct {
	db                *mongo.Database
	notifications     *mongo.Collection
	feedHeads         *mongo.Collection
	feedPages         *mongo.Collection
	configs           *mongo.Collection
	migrations        *mongo.Collection
	notificationLocks keylock.Stripes // by notification key
	feedLocks         keylock.Stripes // by feed head key; taken inside a notification lock, never the other way
	// pointReads: the database is FerretDB, which answers an _id $in by
	// scanning, so notifications are read one exact _id at a time. Set by
	// EnsureIndexes.
	pointReads bool
	// failAfterFeeds, set by tests, fails SaveNotification between its
	// feed entries and the notification: a crash or refusal part way.
	failAfterFeeds error
}

// NewMongo returns a store over db. Call EnsureIndexes before serving.
func NewMongo(db *mongo.Database) *Mongo {
	return &Mongo{
		db:            db,
		notifications: db.Collection(notificationsColl),
		feedHeads:     db.Collection(feedHeadsColl),
		feedPages:     db.Collection(feedPagesColl),
		configs:       db.Collection(configsColl),
		migrations:    db.Collection(migrationsColl),
	}
}

// keys builds an index key document.
func keys(fields ...string) bson.D {
	d := make(bson.D, 0, len(fields))
	for _, f := range fields {
		dir := 1
		if f[0] == '-' {
			f, dir = f[1:], -1
		}
		d = append(d, bson.E{Key: f, Value: dir})
	}
	return d
}

func index(name string, unique bool, fields ...string) mongo.IndexModel {
	return mongo.IndexModel{Keys: keys(fields...), Options: options.Index().SetName(name).SetUnique(unique)}
}

// EnsureIndexes creates the indexes; safe at every start. Each list
// query walks one of the notification indexes in (timestamp, id) order from
// its cursor, so on MongoDB a page costs the same on the first and the
// hundredth page. Notifications and user feeds are keyed by _id (see
// keys.go), so adds and the user-data export need no further index.
func (m *Mongo) EnsureIndexes(ctx context.Context) error {
	ferret, err := mongodb.IsFerretDB(ctx, m.db)
	if err != nil {
		return err
	}
	m.pointReads = ferret
	steps := []struct {
		coll   *mongo.Collection
		models []mongo.IndexModel
	}{
		{m.notifications, []mongo.IndexModel{
			index("by_time", false, "workspaceId", "organizationId", "-timestamp", "-id"),
			index("by_document", false, "workspaceId", "organizationId", "documentId", "-timestamp", "-id"),
			index("by_audience", false, "workspaceId", "organizationId", "visibleTo", "-timestamp", "-id"),
		}},
		{m.configs, []mongo.IndexModel{
			index("config_key", true, "workspaceId", "organizationId", "userId", "documentId"),
			index("by_document", false, "workspaceId", "organizationId", "documentId"),
		}},
		{m.migrations, []mongo.IndexModel{
			index("migration_id", true, "workspaceId", "migrationId"),
		}},
	}
	for _, s := range steps {
		if err := mongodb.EnsureIndexes(ctx, s.coll, s.models...); err != nil {
			return err
		}
	}
	return nil
}

// Ping checks the database is reachable (readiness).
func (m *Mongo) Ping(ctx context.Context) error {
	return m.db.Client().Ping(ctx, nil)
}

// upsertRetry runs an upsert once more when it lost an insert race: two
// concurrent upserts of one new key can both try to insert, and the loser's
// second try finds and updates the winner's document.
func upsertRetry(run func() error) error {
	err := run()
	if mongodb.IsDuplicateKey(err) {
		err = run()
	}
	return err
}

// newRev is a fresh revision for a write made here (see notify.Notification.Rev).
func newRev() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", op, err)
}
