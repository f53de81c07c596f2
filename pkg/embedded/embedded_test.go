package embedded

import (
	"context"
	"fmt"
	"net"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/mongodb"
	"github.com/opencollab/backend/pkg/redisdb"
)

type doc struct {
	ID    string `bson:"_id"`
	Email string `bson:"email"`
}

// withFerret starts FerretDB on dir, hands fn a collection and stops it.
func withFerret(t *testing.T, dir string, fn func(*mongo.Collection)) {
	t.Helper()
	ctx := t.Context()
	uri, stop, err := StartFerretDB(ctx, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	client, err := mongodb.Connect(ctx, uri)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Disconnect(context.WithoutCancel(ctx))
	fn(client.Database("app").Collection("users"))
}

func TestFerretDBPersistsAndEnforcesUnique(t *testing.T) {
	dir := t.TempDir()
	unique := mongo.IndexModel{
		Keys:    bson.D{{Key: "email", Value: 1}},
		Options: options.Index().SetUnique(true).SetName("email_unique"),
	}
	withFerret(t, dir, func(c *mongo.Collection) {
		ctx := t.Context()
		if _, err := c.InsertOne(ctx, doc{"u1", "a@example.com"}); err != nil {
			t.Fatal(err)
		}
		var got doc
		if err := c.FindOne(ctx, bson.M{"_id": "u1"}).Decode(&got); err != nil || got.Email != "a@example.com" {
			t.Fatalf("find = %+v, %v", got, err)
		}
		for range 2 { // the second run proves EnsureIndexes is idempotent
			if err := mongodb.EnsureIndexes(ctx, c, unique); err != nil {
				t.Fatal(err)
			}
		}
		inserts := []struct {
			name    string
			doc     doc
			wantDup bool
		}{
			{"same email", doc{"u2", "a@example.com"}, true},
			{"same id", doc{"u1", "b@example.com"}, true},
			{"new email", doc{"u3", "c@example.com"}, false},
		}
		for _, tt := range inserts {
			_, err := c.InsertOne(ctx, tt.doc)
			if got := mongodb.IsDuplicateKey(err); got != tt.wantDup {
				t.Errorf("%s: IsDuplicateKey(%v) = %v, want %v", tt.name, err, got, tt.wantDup)
			}
		}
	})
	withFerret(t, dir, func(c *mongo.Collection) {
		n, err := c.CountDocuments(t.Context(), bson.M{})
		if err != nil || n != 2 {
			t.Fatalf("after restart: %d documents, err %v; want 2", n, err)
		}
		_, err = c.InsertOne(t.Context(), doc{"u4", "c@example.com"})
		if !mongodb.IsDuplicateKey(err) {
			t.Fatalf("unique index lost on restart: err = %v", err)
		}
	})
}

func TestStartRedis(t *testing.T) {
	url, stop, err := StartRedis()
	if err != nil {
		t.Fatal(err)
	}
	c, err := redisdb.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Set(t.Context(), "k", "v", 0).Err(); err != nil {
		t.Fatal(err)
	}
	stop()
	addr := strings.TrimPrefix(url, "redis://")
	if conn, err := net.Dial("tcp", addr); err == nil {
		conn.Close()
		t.Fatal("server still accepts connections after stop")
	}
}

func TestIsFerretDBRecognisesTheEmbeddedStore(t *testing.T) {
	withFerret(t, t.TempDir(), func(c *mongo.Collection) {
		ferret, err := mongodb.IsFerretDB(t.Context(), c.Database())
		if err != nil || !ferret {
			t.Fatalf("IsFerretDB = %v, %v; want true", ferret, err)
		}
	})
}

// Two stores may start at once (parallel tests each start a system):
// FerretDB's constructor writes a package-level variable, so under the race
// detector this failed until newFerretDB took turns. Each store still
// serves its own directory.
func TestTwoStoresStartAtOnce(t *testing.T) {
	t.Parallel()
	dirs := []string{t.TempDir(), t.TempDir()}
	errs := make(chan error, len(dirs))
	for i, dir := range dirs {
		go func() {
			var err error
			defer func() { errs <- err }()
			uri, stop, err := StartFerretDB(t.Context(), dir, nil)
			if err != nil {
				return
			}
			defer stop()
			client, err := mongodb.Connect(t.Context(), uri)
			if err != nil {
				return
			}
			defer client.Disconnect(context.WithoutCancel(t.Context()))
			c := client.Database("app").Collection("users")
			if _, err = c.InsertOne(t.Context(), doc{ID: "u", Email: dir}); err != nil {
				return
			}
			var got doc
			if err = c.FindOne(t.Context(), bson.M{"_id": "u"}).Decode(&got); err == nil && got.Email != dirs[i] {
				err = fmt.Errorf("store %d read %q, its own directory is %q", i, got.Email, dirs[i])
			}
		}()
	}
	for range dirs {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
