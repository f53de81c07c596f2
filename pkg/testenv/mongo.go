package testenv

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/opencollab/backend/pkg/mongodb"
)

// dropTimeout bounds cleanup; t.Context is already canceled by then.
const dropTimeout = 30 * time.Second

var (
	mongoOnce   sync.Once
	mongoURI    string
	mongoErr    error
	clientOnce  sync.Once
	mongoClient *mongo.Client
	clientErr   error
)

// MongoURI returns the MongoDB server for this test binary, started or
// chosen on first use: $TEST_MONGO_URI, else a testcontainers MongoDB when
// Docker answers, else embedded FerretDB. Tests share it; use Mongo or
// FreshDBName for isolation.
func MongoURI(t testing.TB) string {
	t.Helper()
	mongoOnce.Do(func() {
		var backend string
		mongoURI, backend, mongoErr = chooseMongo()
		if mongoErr == nil {
			logBackend("mongodb", backend, redactURI(mongoURI))
		}
	})
	if mongoErr != nil {
		t.Fatalf("testenv: mongodb: %v", mongoErr)
	}
	return mongoURI
}

func chooseMongo() (uri, backend string, err error) {
	if uri := os.Getenv(EnvMongoURI); uri != "" {
		return uri, "env " + EnvMongoURI, nil
	}
	if dockerAvailable() {
		uri, err := startMongoContainer()
		return uri, "testcontainers", err
	}
	uri, err = startFerretDB()
	return uri, "embedded ferretdb", err
}

// Mongo returns a fresh, empty database for t, dropped when t ends.
func Mongo(t testing.TB) *mongo.Database {
	t.Helper()
	return sharedClient(t).Database(FreshDBName(t))
}

// FreshDBName returns a database name no other test uses, for tests that
// configure a service by name. The database is dropped when t ends.
func FreshDBName(t testing.TB) string {
	t.Helper()
	client := sharedClient(t)
	name := "t_" + randomHex(t, 8)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), dropTimeout)
		defer cancel()
		if err := client.Database(name).Drop(ctx); err != nil {
			t.Errorf("testenv: drop %s: %v", name, err)
		}
	})
	return name
}

// sharedClient connects once per process; the pool is safe for parallel
// tests and reconnecting per test would dominate their run time.
func sharedClient(t testing.TB) *mongo.Client {
	t.Helper()
	uri := MongoURI(t)
	clientOnce.Do(func() {
		mongoClient, clientErr = mongodb.Connect(context.Background(), uri)
		if clientErr == nil {
			atShutdown(func() { _ = mongoClient.Disconnect(context.Background()) })
		}
	})
	if clientErr != nil {
		t.Fatalf("testenv: mongodb client: %v", clientErr)
	}
	return mongoClient
}

func randomHex(t testing.TB, n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatalf("testenv: random: %v", err)
	}
	return hex.EncodeToString(b)
}

// redactURI hides credentials of env-named servers in logs.
func redactURI(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Sprintf("<unparsable uri, %d bytes>", len(raw))
	}
	return u.Redacted()
}
