package mongodb_test

import (
	"context"
	"net"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/mongodb"
	"github.com/opencollab/backend/pkg/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

func TestConnect(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := l.Addr().String()
	l.Close()

	tests := []struct {
		name    string
		uri     string
		wantErr string
	}{
		{"reachable", testenv.MongoURI(t), ""},
		{"bad scheme", "http://" + dead, "connect"},
		{"nobody listening", "mongodb://" + dead + "/?serverSelectionTimeoutMS=300", "ping"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := mongodb.Connect(t.Context(), tt.uri)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				_ = c.Disconnect(context.Background())
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestEnsureIndexesAndDuplicates(t *testing.T) {
	coll := testenv.Mongo(t).Collection("accounts")
	ctx := t.Context()
	models := []mongo.IndexModel{
		{Keys: bson.D{{Key: "email", Value: 1}}, Options: options.Index().SetUnique(true)},
		{Keys: bson.D{{Key: "org", Value: 1}, {Key: "created", Value: -1}}},
	}
	// Two models, twice: FerretDB used to drop the connection when one
	// createIndexes command named several existing indexes.
	for i := range 2 {
		if err := mongodb.EnsureIndexes(ctx, coll, models...); err != nil {
			t.Fatalf("run %d: %v", i+1, err)
		}
	}
	if err := mongodb.EnsureIndexes(ctx, coll); err != nil {
		t.Fatalf("no models: %v", err)
	}
	if _, err := coll.InsertOne(ctx, bson.M{"email": "a@x"}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		doc  bson.M
		want bool
	}{
		{"duplicate email", bson.M{"email": "a@x"}, true},
		{"new email", bson.M{"email": "b@x"}, false},
	}
	for _, tt := range tests {
		_, err := coll.InsertOne(ctx, tt.doc)
		if got := mongodb.IsDuplicateKey(err); got != tt.want {
			t.Errorf("%s: IsDuplicateKey(%v) = %v, want %v", tt.name, err, got, tt.want)
		}
	}
	_, err := coll.InsertOne(ctx, bson.M{"email": "c@x"})
	if err != nil {
		t.Fatal(err)
	}
	err = coll.FindOne(ctx, bson.M{"email": "nobody"}).Err()
	if !mongodb.IsNotFound(err) {
		t.Errorf("IsNotFound(%v) = false", err)
	}
}
