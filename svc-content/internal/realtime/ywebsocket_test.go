package realtime

import (
	"context"
	"testing"

	"github.com/opencollab/backend/svc-content/internal/yjs"
	"github.com/opencollab/backend/svc-content/realtimetest"
)

func TestYWebsocketStockClientsConverge(t *testing.T) {
	t.Parallel()
	srv := startServer(t, nil, nil, Settings{})
	r := realtimetest.Run(t, "converge", map[string]any{
		"wsBase": srv.wsBase, "room": "org1/doc1/ed1", "tokens": []string{"editor:ada", "editor:bob"},
	})
	// What the clients ended with is what the store holds.
	stored, _, err := srv.store.Load(context.Background(), DocKey{"ws1", "org1", "doc1", "ed1"})
	if err != nil {
		t.Fatal(err)
	}
	doc := yjs.NewDoc(9)
	if err := doc.ApplyUpdate(stored); err != nil {
		t.Fatal(err)
	}
	if got := doc.Text("content").String(); got != r["text"] {
		t.Fatalf("stored text %q, clients ended with %q", got, r["text"])
	}
}

func TestYWebsocketSeededContentReachesClients(t *testing.T) {
	t.Parallel()
	store := NewMemoryStore()
	seed := yjs.NewDoc(42)
	update, err := seed.Transact(func(tx *yjs.Tx) error { return seed.Text("content").Insert(tx, 0, "seeded ", nil) })
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Append(context.Background(), DocKey{"ws1", "org1", "doc2", "ed1"}, update); err != nil {
		t.Fatal(err)
	}
	srv := startServer(t, store, nil, Settings{})
	realtimetest.Run(t, "converge", map[string]any{
		"wsBase": srv.wsBase, "room": "org1/doc2/ed1", "tokens": []string{"editor:ada", "editor:bob"}, "expectInitial": "seeded ",
	})
}

func TestYWebsocketViewerEditsGoNowhere(t *testing.T) {
	t.Parallel()
	srv := startServer(t, nil, nil, Settings{})
	realtimetest.Run(t, "viewer", map[string]any{
		"wsBase": srv.wsBase, "room": "org1/doc3/ed1", "editorToken": "editor:ada", "viewerToken": "viewer:vic",
	})
}

func TestYWebsocketRefusesTokens(t *testing.T) {
	t.Parallel()
	srv := startServer(t, nil, nil, Settings{})
	for _, tc := range []struct {
		name, token string
		code        int
	}{
		{"bad token", "garbage", CloseUnauthorized},
		{"no token", "", CloseUnauthorized},
		{"no access", "none:eve", CloseForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			realtimetest.Run(t, "refused", map[string]any{
				"wsBase": srv.wsBase, "room": "org1/doc4/ed1", "token": tc.token, "expectCode": tc.code,
			})
		})
	}
}

func TestYWebsocketAwareness(t *testing.T) {
	t.Parallel()
	srv := startServer(t, nil, nil, Settings{})
	realtimetest.Run(t, "awareness", map[string]any{
		"wsBase": srv.wsBase, "room": "org1/doc5/ed1", "tokens": []string{"editor:ada", "viewer:vic"},
	})
}
