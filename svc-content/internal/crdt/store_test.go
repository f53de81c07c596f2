package crdt

import (
	"errors"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/pkg/api"
)

// storedVersions is every stored document of the test editor by version.
func storedVersions(t *testing.T, svc *Service) map[int64]recordDoc {
	t.Helper()
	cur, err := svc.store.(*mongoStore).coll.Find(t.Context(), bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	var docs []recordDoc
	if err := cur.All(t.Context(), &docs); err != nil {
		t.Fatal(err)
	}
	byVersion := make(map[int64]recordDoc, len(docs))
	for _, d := range docs {
		byVersion[d.Version] = d
	}
	return byVersion
}

func TestOldVersionsAreCutToMarkersThenDeleted(t *testing.T) {
	svc, _ := newTestService(t)
	ctx := t.Context()
	if err := svc.Add(ctx, "ws1", ed, content("text", `"v1"`), ""); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{`"v2"`, `"v3"`, `"v4"`} {
		if err := svc.Update(ctx, "ws1", ed, content("text", v), ""); err != nil {
			t.Fatal(err)
		}
	}
	docs := storedVersions(t, svc)
	if len(docs) != 4 {
		t.Fatalf("stored versions %v, want markers 1-3 and version 4", len(docs))
	}
	for v := int64(1); v <= 3; v++ {
		if d := docs[v]; !d.Marker || d.Data != "" || d.Update != nil || d.Yjs.Current != nil {
			t.Fatalf("version %d not cut to a marker: %+v", v, d)
		}
	}
	if d := docs[4]; d.Marker || d.Data != `"v4"` {
		t.Fatalf("latest version = %+v", d)
	}

	later := svc.now().Add(markerRetention + time.Second)
	svc.now = func() time.Time { return later }
	if err := svc.Update(ctx, "ws1", ed, content("text", `"v5"`), ""); err != nil {
		t.Fatal(err)
	}
	docs = storedVersions(t, svc)
	if len(docs) != 2 || !docs[1].Marker || docs[5].Data != `"v5"` {
		t.Fatalf("after retention stored %+v, want the version 1 marker and version 5", docs)
	}
	if err := svc.Add(ctx, "ws1", ed, content("text", `"again"`), ""); !api.IsStatus(err, api.AlreadyExists) {
		t.Fatalf("add after pruning: %v", err)
	}
	views, _ := svc.Get(ctx, "ws1", "org1", "doc1", "")
	if len(views) != 1 || string(views[0].Data) != `"v5"` {
		t.Fatalf("document view after pruning = %+v", views)
	}
}

// An update that read version 1 and writes version 2 after versions 2 and
// 3 were written must conflict: version 2's marker still holds the slot.
func TestStaleVersionConflicts(t *testing.T) {
	svc, _ := newTestService(t)
	ctx := t.Context()
	if err := svc.Add(ctx, "ws1", ed, content("text", `"v1"`), ""); err != nil {
		t.Fatal(err)
	}
	stale, err := svc.store.Find(ctx, "ws1", ed.OrganizationID, ed.DocumentID, ed.EditorID)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{`"v2"`, `"v3"`} {
		if err := svc.Update(ctx, "ws1", ed, content("text", v), ""); err != nil {
			t.Fatal(err)
		}
	}
	p, err := parseContent("text", []byte(`"stale"`))
	if err != nil {
		t.Fatal(err)
	}
	next, err := svc.nextVersion(stale, p, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.store.AppendVersion(ctx, "ws1", next); !errors.Is(err, ErrConflict) {
		t.Fatalf("stale append: %v, want ErrConflict", err)
	}
	latest, _ := svc.store.Find(ctx, "ws1", ed.OrganizationID, ed.DocumentID, ed.EditorID)
	if latest.Version != 3 || string(latest.Data) != `"v3"` {
		t.Fatalf("latest = version %d %s", latest.Version, latest.Data)
	}
}
