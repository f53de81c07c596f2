package testenv

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

func TestMongoDatabasesAreFreshAndDistinct(t *testing.T) {
	var (
		mu    sync.Mutex
		names []string
	)
	for _, name := range []string{"a", "b"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			db := Mongo(t)
			if len(db.Name()) >= 38 || !strings.HasPrefix(db.Name(), "t_") {
				t.Errorf("database name %q: want t_ prefix and < 38 chars", db.Name())
			}
			colls, err := db.ListCollectionNames(t.Context(), bson.D{})
			if err != nil || len(colls) != 0 {
				t.Fatalf("new database has collections %v (err %v)", colls, err)
			}
			c := db.Collection("things")
			if _, err := c.InsertOne(t.Context(), bson.M{"owner": name}); err != nil {
				t.Fatal(err)
			}
			// Had the two subtests shared a database, one would see 2 here.
			if n, err := c.CountDocuments(t.Context(), bson.M{}); err != nil || n != 1 {
				t.Fatalf("count = %d (err %v), want 1", n, err)
			}
			mu.Lock()
			names = append(names, db.Name())
			mu.Unlock()
		})
	}
	t.Cleanup(func() {
		if len(names) != 2 || names[0] == names[1] {
			t.Errorf("databases not distinct: %v", names)
		}
	})
}

func TestFreshDBNameIsDroppedAtCleanup(t *testing.T) {
	var name string
	t.Run("user", func(t *testing.T) {
		name = FreshDBName(t)
		db := sharedClient(t).Database(name)
		if _, err := db.Collection("c").InsertOne(t.Context(), bson.M{"x": 1}); err != nil {
			t.Fatal(err)
		}
	})
	dbs, err := sharedClient(t).ListDatabaseNames(context.Background(), bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(dbs, name) {
		t.Fatalf("database %s still exists after its test ended", name)
	}
}

func TestRedactURI(t *testing.T) {
	tests := []struct{ in, want string }{
		{"mongodb://127.0.0.1:27017/", "mongodb://127.0.0.1:27017/"},
		{"mongodb://user:secret@db:27017/", "mongodb://user:xxxxx@db:27017/"},
		{"redis://:pw@cache:6379/0", "redis://:xxxxx@cache:6379/0"},
		{"::bad", "<unparsable uri, 5 bytes>"},
	}
	for _, tt := range tests {
		if got := redactURI(tt.in); got != tt.want {
			t.Errorf("redactURI(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
