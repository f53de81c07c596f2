package signing

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/testenv"
	"go.mongodb.org/mongo-driver/v2/bson"
)

func TestMain(m *testing.M) { testenv.Main(m) }

func TestSecretStoreCreatesAndPersists(t *testing.T) {
	ctx := t.Context()
	db := testenv.Mongo(t)
	store := NewSecretStore(db)
	if err := store.EnsureIndexes(ctx); err != nil {
		t.Fatal(err)
	}

	first, err := store.Get(ctx, "ws-1")
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Signature) != 32 || len(first.JWT) != 32 {
		t.Fatalf("secret lengths = %d, %d, want 32", len(first.Signature), len(first.JWT))
	}
	if bytes.Equal(first.Signature, first.JWT) {
		t.Error("signature and JWT secrets are equal")
	}

	// A fresh store (another replica, or after restart) reads the same secrets.
	again, err := NewSecretStore(db).Get(ctx, "ws-1")
	if err != nil {
		t.Fatal(err)
	}
	assertSameSecrets(t, again, first)

	var doc bson.M
	if err := db.Collection("workspace_secrets").FindOne(ctx, bson.M{"_id": "ws-1"}).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if doc["workspaceId"] != "ws-1" {
		t.Errorf("workspaceId = %v", doc["workspaceId"])
	}
	if b, ok := doc["signatureSecret"].(bson.Binary); !ok || !bytes.Equal(b.Data, first.Signature) {
		t.Errorf("signatureSecret = %#v", doc["signatureSecret"])
	}
	if b, ok := doc["jwtSecret"].(bson.Binary); !ok || !bytes.Equal(b.Data, first.JWT) {
		t.Errorf("jwtSecret = %#v", doc["jwtSecret"])
	}
	if _, ok := doc["createdAt"].(bson.DateTime); !ok {
		t.Errorf("createdAt = %#v, want a date", doc["createdAt"])
	}
}

func TestSecretStoreConcurrentFirstUse(t *testing.T) {
	tests := []struct {
		name       string
		sameStore  bool
		goroutines int
	}{
		{"two goroutines, one store", true, 2},
		{"two goroutines, two stores", false, 2},
		{"eight stores", false, 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			db := testenv.Mongo(t)
			shared := NewSecretStore(db)

			results := make([]Secrets, tt.goroutines)
			errs := make([]error, tt.goroutines)
			start := make(chan struct{})
			var wg sync.WaitGroup
			for i := range tt.goroutines {
				store := shared
				if !tt.sameStore {
					store = NewSecretStore(db) // no shared cache: only the database arbitrates
				}
				wg.Go(func() {
					<-start
					results[i], errs[i] = store.Get(ctx, "fresh-ws")
				})
			}
			close(start)
			wg.Wait()

			for i := range tt.goroutines {
				if errs[i] != nil {
					t.Fatalf("goroutine %d: %v", i, errs[i])
				}
				assertSameSecrets(t, results[i], results[0])
			}
			stored, err := NewSecretStore(db).Get(ctx, "fresh-ws")
			if err != nil {
				t.Fatal(err)
			}
			assertSameSecrets(t, stored, results[0])

			other, err := shared.Get(ctx, "second-ws")
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Equal(other.Signature, results[0].Signature) || bytes.Equal(other.JWT, results[0].JWT) {
				t.Error("second workspace got the first workspace's secrets")
			}
		})
	}
}

func TestSecretStoreCacheIsNotMutable(t *testing.T) {
	ctx := t.Context()
	store := NewSecretStore(testenv.Mongo(t))
	first, err := store.Get(ctx, "ws")
	if err != nil {
		t.Fatal(err)
	}
	want := Secrets{Signature: bytes.Clone(first.Signature), JWT: bytes.Clone(first.JWT)}
	first.Signature[0] ^= 0xff
	first.JWT[0] ^= 0xff

	again, err := store.Get(ctx, "ws")
	if err != nil {
		t.Fatal(err)
	}
	assertSameSecrets(t, again, want)
}

func TestSecretStoreErrors(t *testing.T) {
	ctx := t.Context()
	db := testenv.Mongo(t)
	store := NewSecretStore(db)

	if _, err := store.Get(ctx, ""); err == nil {
		t.Error("empty workspace id: want error")
	}

	_, err := db.Collection("workspace_secrets").InsertOne(ctx, bson.M{
		"_id": "broken", "workspaceId": "broken",
		"signatureSecret": []byte("short"), "jwtSecret": []byte("short"), "createdAt": time.Now(),
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Get(ctx, "broken"); err == nil {
		t.Error("malformed stored secrets: want error")
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := NewSecretStore(db).Get(cancelled, "never-seen"); err == nil {
		t.Error("cancelled context: want error")
	}
}

func assertSameSecrets(t *testing.T, got, want Secrets) {
	t.Helper()
	if !bytes.Equal(got.Signature, want.Signature) || !bytes.Equal(got.JWT, want.JWT) {
		t.Errorf("secrets differ:\n got %x / %x\nwant %x / %x", got.Signature, got.JWT, want.Signature, want.JWT)
	}
}
