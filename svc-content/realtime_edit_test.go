package svccontent

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/opencollab/backend/pkg/events/eventstest"
	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-content/internal/crdt"
	"github.com/opencollab/backend/svc-content/internal/realtime"
	"github.com/opencollab/backend/svc-content/internal/yjs"
	"github.com/opencollab/backend/svc-content/internal/yjs/lib0"
	"github.com/opencollab/backend/svc-content/realtimetest"
)

// lastEventData is the data of the last event rec was given.
func lastEventData(t *testing.T, rec *eventstest.Recorder) json.RawMessage {
	t.Helper()
	got := rec.Events()
	if len(got) == 0 {
		t.Fatal("no event published")
	}
	b, err := json.Marshal(got[len(got)-1].Data)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// editorAccess grants every token editor access in workspace ws1.
type editorAccess struct{}

func (editorAccess) Check(_ context.Context, token, _, _ string) (realtime.Grant, error) {
	return realtime.Grant{Workspace: "ws1", UserID: token, Role: realtime.RoleEditor, ExpiresAt: time.Now().Add(time.Hour)}, nil
}

// The edit event of a document loaded by the realtime hub is rendered
// from the hub's copy: it sends no store command, and its data is what
// the event rendered from the store says.
func TestEditEventReadsNoStore(t *testing.T) {
	db, counter := testenv.CountingMongo(t)
	rec := &eventstest.Recorder{}
	svc := crdt.NewService(db, rec, crdt.Settings{})
	t.Cleanup(svc.Wait)
	ctx := t.Context()
	if err := svc.EnsureIndexes(ctx); err != nil {
		t.Fatal(err)
	}
	key := realtime.DocKey{Workspace: "ws1", Org: "org1", Doc: "doc1", Editor: "ed1"}
	if err := svc.Add(ctx, "ws1", editor(key), crdt.Content{Type: "text", Data: json.RawMessage(`"x"`)}, "ada"); err != nil {
		t.Fatal(err)
	}
	hub := realtime.NewHub(realtime.Options{Store: crdtStore{svc}, Access: editorAccess{}})
	pub := &editPublisher{crdt: svc, docs: hub}
	wsBase := serveYWebsocket(t, hub)

	client, _, err := websocket.DefaultDialer.DialContext(ctx, wsBase+"/org1/doc1/ed1?token=bob", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	stored, err := svc.LoadUpdate(ctx, "ws1", editor(key))
	if err != nil {
		t.Fatal(err)
	}
	if err := client.WriteMessage(websocket.BinaryMessage, ywsUpdate(t, stored, "y")); err != nil {
		t.Fatal(err)
	}
	waitForData(t, svc, key, `"xy"`)

	by := realtime.Author{UserID: "bob", SessionID: "s1"}
	sent := counter.Count(func() {
		if err := pub.PublishEdit(ctx, key, by); err != nil {
			t.Fatal(err)
		}
	})
	if len(sent) != 0 {
		t.Errorf("the edit event sent store commands %v, want none", sent)
	}
	fromHub := lastEventData(t, rec)
	if err := svc.PublishEdited(ctx, "ws1", editor(key), by.UserID, by.SessionID); err != nil {
		t.Fatal(err)
	}
	if fromStore := lastEventData(t, rec); string(fromHub) != string(fromStore) {
		t.Fatalf("event data from the hub %s, from the store %s", fromHub, fromStore)
	}
}

func serveYWebsocket(t *testing.T, hub *realtime.Hub) string {
	t.Helper()
	return realtimetest.ServeHub(t, hub) + "/v2/crdt/sync"
}

// ywsUpdate is a y-websocket sync update appending s to the text of
// state.
func ywsUpdate(t *testing.T, state []byte, s string) []byte {
	t.Helper()
	d := yjs.NewDoc(77)
	if err := d.ApplyUpdate(state); err != nil {
		t.Fatal(err)
	}
	text := d.Text(crdt.DefaultContentKey)
	u, err := d.Transact(func(tx *yjs.Tx) error { return text.Insert(tx, text.Len(), s, nil) })
	if err != nil {
		t.Fatal(err)
	}
	var e lib0.Encoder
	e.WriteVarUint(0) // sync
	e.WriteVarUint(2) // update
	e.WriteVarBytes(u)
	return e.Buf
}

func waitForData(t *testing.T, svc *crdt.Service, key realtime.DocKey, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		views, err := svc.Get(t.Context(), key.Workspace, key.Org, key.Doc, key.Editor, crdt.Query{})
		if err == nil && len(views) == 1 && string(views[0].Data) == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("stored data %v (%v), want %s", views, err, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
