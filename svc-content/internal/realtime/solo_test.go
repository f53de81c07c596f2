package realtime

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/opencollab/backend/pkg/testenv"
)

// A solo hub (the only replica) stores and relays as any other, but sends
// nothing through Redis pub/sub, subscribes to nothing and counts its
// sessions in process; a hub that may have peers publishes each stored
// update, subscribes to its rooms and counts its sessions in Redis.
func TestSoloHubPublishesNothingToRedis(t *testing.T) {
	t.Parallel()
	for _, solo := range []bool{true, false} {
		rdb := testenv.OtherRedis(t) // private: every publish on it is the hub's
		published := watchPublishes(t, rdb)
		store := NewMemoryStore()
		srv := startServer(t, store, rdb, Settings{Solo: solo})
		key := DocKey{"ws1", "org1", "solo", "ed1"}
		ws := rawClient(t, srv.wsBase, "org1/solo/ed1", "editor:ada", 0)
		waitMembers(t, srv.hub, key, 1)
		reader := relays(rawClient(t, srv.wsBase, "org1/solo/ed1", "viewer:sam", 0))
		waitMembers(t, srv.hub, key, 2)
		sendText(t, ws, 1, "hi")
		select {
		case <-reader:
		case <-time.After(10 * time.Second):
			t.Fatalf("solo=%v: the other client got no relay", solo)
		}
		subs, err := rdb.PubSubNumSub(t.Context(), key.channel()).Result()
		if err != nil {
			t.Fatal(err)
		}
		// Sessions too are counted in Redis only where replicas share it.
		counted, err := rdb.Keys(t.Context(), "rt:n:*").Result()
		if err != nil {
			t.Fatal(err)
		}
		if solo != (len(counted) == 0) {
			t.Fatalf("solo=%v: session counts in Redis: %v", solo, counted)
		}
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		srv.hub.Close(ctx) // the update is stored and released
		cancel()
		if state, _, _ := store.Load(t.Context(), key); state == nil {
			t.Fatalf("solo=%v: the update was not stored", solo)
		}
		n := published()
		if solo && (n != 0 || subs[key.channel()] != 0) {
			t.Fatalf("solo hub: %d publishes, %d subscribers of the room's channel; want none", n, subs[key.channel()])
		}
		if !solo && (n == 0 || subs[key.channel()] != 1) {
			t.Fatalf("replica hub: %d publishes, %d subscribers of the room's channel; want the update fanned out", n, subs[key.channel()])
		}
	}
}

// watchPublishes counts the messages published on rdb from now on; the
// returned function waits for those published before it was called.
func watchPublishes(t *testing.T, rdb *redis.Client) func() int {
	t.Helper()
	ps := rdb.PSubscribe(t.Context(), "*")
	t.Cleanup(func() { _ = ps.Close() })
	if _, err := ps.Receive(t.Context()); err != nil {
		t.Fatal(err)
	}
	return func() int {
		const sentinel = "test:sentinel"
		if err := rdb.Publish(t.Context(), sentinel, "end").Err(); err != nil {
			t.Fatal(err)
		}
		// One connection gets messages in publish order: the sentinel
		// comes after every earlier publish.
		n := 0
		for {
			m, err := ps.ReceiveMessage(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if m.Channel == sentinel {
				return n
			}
			n++
		}
	}
}

// A solo hub still catches up with the store: an update another writer
// stored there (a document migration re-keys editors without telling the
// hub) reaches the clients of the open room.
func TestSoloHubCatchesUpWithTheStore(t *testing.T) {
	t.Parallel()
	store := NewMemoryStore()
	srv := startServer(t, store, testenv.OtherRedis(t), Settings{Solo: true, CatchUpInterval: 200 * time.Millisecond})
	key := DocKey{"ws1", "org1", "solocatch", "ed1"}
	reader := relays(rawClient(t, srv.wsBase, "org1/solocatch/ed1", "viewer:sam", 0))
	waitMembers(t, srv.hub, key, 1)
	if err := store.Append(t.Context(), key, textUpdate(t, 3, "from elsewhere")); err != nil {
		t.Fatal(err)
	}
	select {
	case <-reader:
	case <-time.After(10 * time.Second):
		t.Fatal("the room never caught up with the store")
	}
}
