package embedded

import (
	"context"
	"fmt"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/pkg/mongodb"
)

func TestSyncPragmasRefuseUnknownValue(t *testing.T) {
	for s, want := range map[Sync]string{
		"":         "?_pragma=synchronous(normal)&_pragma=temp_store(memory)",
		SyncNormal: "?_pragma=synchronous(normal)&_pragma=temp_store(memory)",
		SyncFull:   "?_pragma=synchronous(full)&_pragma=temp_store(memory)",
	} {
		got, err := s.pragmas()
		if err != nil || got != want {
			t.Errorf("%q.pragmas() = %q, %v; want %q", s, got, err, want)
		}
	}
	if _, err := Sync("off").pragmas(); err == nil {
		t.Error(`Sync("off") accepted; it would lose acknowledged writes on kill -9`)
	}
	if _, _, err := StartFerretDBWith(t.Context(), t.TempDir(), FerretOptions{Sync: "off"}); err == nil {
		t.Error("StartFerretDBWith started with an unknown sync")
	}
}

// BenchmarkFerretDBCommit measures one single-document update command (one
// SQLite commit) per op with each Sync. Run with strace -f -c -e
// trace=fsync,fdatasync to count the disk syncs independently of load.
func BenchmarkFerretDBCommit(b *testing.B) {
	for _, s := range []Sync{SyncFull, SyncNormal} {
		b.Run(string(s), func(b *testing.B) {
			ctx := context.Background()
			uri, stop, err := StartFerretDBWith(ctx, b.TempDir(), FerretOptions{Sync: s})
			if err != nil {
				b.Fatal(err)
			}
			defer stop()
			client, err := mongodb.Connect(ctx, uri)
			if err != nil {
				b.Fatal(err)
			}
			defer client.Disconnect(ctx)
			c := client.Database("bench").Collection("docs")
			if _, err := c.InsertOne(ctx, bson.M{"_id": "d", "n": 0}); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := range b.N {
				_, err := c.UpdateOne(ctx, bson.M{"_id": "d"}, bson.M{"$set": bson.M{"n": i}})
				if err != nil {
					b.Fatal(fmt.Errorf("update %d: %w", i, err))
				}
			}
		})
	}
}
