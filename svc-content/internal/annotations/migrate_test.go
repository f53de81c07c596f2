package annotations_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/events"
	"github.com/opencollab/backend/pkg/testenv"

	. "github.com/opencollab/backend/svc-content/internal/annotations"
	"github.com/opencollab/backend/svc-content/internal/store"
)

func TestMigrateDocumentIsIdempotent(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	f.add("ws1", "old", "a1", comment("alice", "x"))
	f.add("ws1", "old", "a2", comment("alice", "y"))
	f.add("ws1", "keep", "k1", comment("alice", "z"))
	f.add("ws2", "old", "w1", comment("alice", "other workspace"))

	if has, err := f.svc.HasData(ctx, "ws1", "org1", "new"); err != nil || has {
		t.Fatalf("new has data before: %v %v", has, err)
	}
	moved, err := f.svc.MigrateDocument(ctx, "ws1", "org1", "old", "new")
	if err != nil || moved != 2 {
		t.Fatalf("moved %d, %v", moved, err)
	}
	if moved, err = f.svc.MigrateDocument(ctx, "ws1", "org1", "old", "new"); err != nil || moved != 0 {
		t.Fatalf("second run moved %d, %v", moved, err)
	}
	for doc, want := range map[string]bool{"new": true, "old": false, "keep": true} {
		if has, _ := f.svc.HasData(ctx, "ws1", "org1", doc); has != want {
			t.Errorf("HasData(%s) = %v", doc, has)
		}
	}
	if has, _ := f.svc.HasData(ctx, "ws2", "org1", "old"); !has {
		t.Fatal("migration touched another workspace")
	}
	a := f.one("ws1", "a1")
	if a.DocumentID != "new" || a.Metadata["documentId"] != "new" {
		t.Fatalf("migrated annotation: %+v", a)
	}
	// Comments keep working on the moved annotation, numbering continues
	// and the user's data follows.
	if _, err := f.svc.AddComments(ctx, "ws1", CommentsAddRequest{OrganizationID: "org1", DocumentID: "new", AnnotationID: "a1",
		CommentData: []CommentInput{comment("bob", "after the move")}}); err != nil {
		t.Fatal(err)
	}
	if n := f.one("ws1", f.add("ws1", "new", "", comment("alice", "new one"))).AnnotationNumber; n != 3 {
		t.Fatalf("annotation number after migration = %d, want 3", n)
	}
	page, err := f.svc.UserData(ctx, UserDataQuery{WorkspaceID: "ws1", OrganizationID: "org1", UserID: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string]int{}
	for _, c := range page.Comments {
		docs[c["documentId"].(string)]++
	}
	if docs["new"] != 3 || docs["old"] != 0 {
		t.Fatalf("user data documents = %v", docs)
	}
}

func TestWorkspacesAreIsolated(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	f.add("ws1", "doc1", "a1", comment("alice", "secret"))
	f.add("ws2", "doc1", "a1", comment("mallory", "same id, other workspace"))

	if got := f.one("ws2", "a1"); got.Comments[0].CommentText != "same id, other workspace" {
		t.Fatalf("ws2 reads %q", got.Comments[0].CommentText)
	}
	if _, err := f.svc.AddComments(ctx, "ws3", CommentsAddRequest{OrganizationID: "org1", DocumentID: "doc1", AnnotationID: "a1",
		CommentData: []CommentInput{comment("x", "x")}}); !api.IsStatus(err, api.NotFound) {
		t.Fatalf("ws3 comment on ws1 annotation: %v", err)
	}
	res, err := f.svc.Update(ctx, "ws3", UpdateRequest{OrganizationID: "org1", DocumentID: "doc1", AnnotationIDs: []string{"a1"},
		UpdatedData: []byte(`{"priority":{"id":"P","name":"P"}}`)})
	if err != nil || res["a1"].Success {
		t.Fatalf("ws3 update: %+v %v", res, err)
	}
	res, err = f.svc.Delete(ctx, "ws3", DeleteRequest{DocumentID: "doc1"})
	if err != nil || len(res) != 0 {
		t.Fatalf("ws3 delete: %+v %v", res, err)
	}
	if moved, _ := f.svc.MigrateDocument(ctx, "ws3", "org1", "doc1", "doc9"); moved != 0 {
		t.Fatal("ws3 migrated another workspace's document")
	}
	if got := f.one("ws1", "a1"); got.Comments[0].CommentText != "secret" || got.Priority != nil {
		t.Fatalf("ws1 annotation changed: %+v", got)
	}
}

func TestEventsReachTheStream(t *testing.T) {
	db := testenv.Mongo(t)
	rdb := testenv.Redis(t)
	pub := events.NewPublisher(rdb, db, "content", nil)
	svc := NewService(store.New(db), pub)
	if err := svc.EnsureIndexes(t.Context()); err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	if _, err := svc.Add(ctx, "ws1", AddRequest{OrganizationID: "org1", DocumentID: "doc1",
		CommentAnnotations: []AnnotationInput{{AnnotationID: "a1", CommentData: []CommentInput{comment("alice", "x")}}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.AddComments(ctx, "ws1", CommentsAddRequest{OrganizationID: "org1", DocumentID: "doc1", AnnotationID: "a1",
		CommentData: []CommentInput{comment("bob", "y")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.AddReaction(ctx, "ws1", ReactionAddRequest{OrganizationID: "org1", DocumentID: "doc1", AnnotationID: "a1", Icon: "👍", User: user("bob")}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Delete(ctx, "ws1", DeleteRequest{DocumentID: "doc1"}); err != nil {
		t.Fatal(err)
	}
	msgs, err := rdb.XRange(ctx, events.Stream("content"), "-", "+").Result()
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, m := range msgs {
		var e events.Event
		if err := json.Unmarshal([]byte(m.Values["event"].(string)), &e); err != nil {
			t.Fatal(err)
		}
		if e.WorkspaceID != "ws1" || e.DocumentID != "doc1" || e.OrganizationID != "org1" || e.Source != EventSource {
			t.Fatalf("event envelope = %+v", e)
		}
		var data EventData
		if err := json.Unmarshal(e.Data, &data); err != nil || data.CommentAnnotation.AnnotationID != "a1" {
			t.Fatalf("event data: %s (%v)", e.Data, err)
		}
		types = append(types, e.Type)
	}
	want := []string{EventAnnotationAdd, EventCommentAdd, EventReactionAdd, EventAnnotationDelete}
	if !slices.Equal(types, want) {
		t.Fatalf("stream types = %v, want %v", types, want)
	}
}

func TestRewriteLocation(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	for _, id := range []string{"a1", "a2"} {
		if _, err := f.svc.Add(ctx, "ws1", AddRequest{OrganizationID: "org1", DocumentID: "doc1", CommentAnnotations: []AnnotationInput{{
			AnnotationID: id, Location: map[string]any{"id": "L1", "locationName": "Old", "version": map[string]any{"id": "v1"}},
			CommentData: []CommentInput{comment("alice", "x")}}}}); err != nil {
			t.Fatal(err)
		}
	}
	f.add("ws1", "doc2", "b1", comment("alice", "other document"))
	f.rec.Reset()

	n, err := f.svc.RewriteLocation(ctx, "ws1", "org1", "doc1", "L1", map[string]any{"locationName": "Merged"}, true)
	if err != nil || n != 2 {
		t.Fatalf("merge matched %d, %v", n, err)
	}
	loc := f.one("ws1", "a1").Location
	if loc["id"] != "L1" || loc["locationName"] != "Merged" || loc["version"] == nil {
		t.Fatalf("merged location = %v", loc)
	}
	n, err = f.svc.RewriteLocation(ctx, "ws1", "org1", "doc1", "L1", map[string]any{"id": "L2"}, false)
	if err != nil || n != 2 {
		t.Fatalf("replace matched %d, %v", n, err)
	}
	if loc := f.one("ws1", "a2").Location; len(loc) != 1 || loc["id"] != "L2" {
		t.Fatalf("replaced location = %v", loc)
	}
	if n, _ := f.svc.RewriteLocation(ctx, "ws2", "org1", "doc1", "L2", map[string]any{"id": "X"}, false); n != 0 {
		t.Fatal("another workspace rewrote locations")
	}
	if _, err := f.svc.RewriteLocation(ctx, "ws1", "org1", "doc1", "L2", map[string]any{"locationName": "no id"}, false); !api.IsStatus(err, api.InvalidArgument) {
		t.Fatalf("replace without id: %v", err)
	}
	if got := f.rec.Types(); len(got) != 4 || got[0] != EventAnnotationUpdate {
		t.Fatalf("events = %v", got)
	}
}
