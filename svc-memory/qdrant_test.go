package svcmemory_test

import (
	"testing"

	"github.com/opencollab/backend/pkg/docmigrate"
	"github.com/opencollab/backend/pkg/testenv"
	svcmemory "github.com/opencollab/backend/svc-memory"
	"github.com/opencollab/backend/svc-memory/internal/vector/qdranttest"
)

// The whole service on Qdrant (an in-process fake of its gRPC API): two
// collections, filters inside the query, and an index that outlives the
// process.
func TestServiceOnQdrant(t *testing.T) {
	t.Parallel()
	srv := qdranttest.Start(t)
	cfg := svcmemory.Config{QdrantAddr: srv.Addr(), QdrantCollection: "judgments"}
	e := newEnv(t, cfg)
	seed(e)
	for _, name := range []string{"judgments_review_builtin-hash-v2-256", "judgments_content_builtin-hash-v2-256"} {
		if _, ok := srv.PayloadIndexes(name); !ok {
			t.Fatalf("collection %s not created", name)
		}
	}
	tests := []struct {
		body map[string]any
		want string
	}{
		{map[string]any{"query": "citation missing", "limit": 50}, "s1,s2,s3,s4,s5,s6,s7"},
		{map[string]any{"query": "citation missing", "organizationId": "o1", "documentId": "d1"}, "s1,s2,s3"},
		{map[string]any{"query": "citation missing", "filters": map[string]any{"decision": "reject", "judgeType": "human"}}, "s1,s2,s7"},
		{map[string]any{"query": "citation missing", "organizationId": "o1", "filters": map[string]any{"excludeDocumentIds": []string{"d1"}}}, "s4,s5,s6"},
		{map[string]any{"query": "onboarding checklist", "embeddingType": "content", "limit": 1}, "s3"},
	}
	for _, tt := range tests {
		if got := sortedIDs(e.search(ws1, tt.body).Results); got != tt.want {
			t.Fatalf("search %v: %s, want %s", tt.body, got, tt.want)
		}
	}
	if got := e.search(ws2, map[string]any{"query": "citation missing"}); ids(got.Results) != "x1" {
		t.Fatalf("ws2: %s", ids(got.Results))
	}
	if got := e.ask(ws1, map[string]any{"question": "Is the citation missing?", "organizationId": "o1", "documentId": "d1"}); got.Answer == "" {
		t.Fatalf("ask: %+v", got)
	}
	var moved docmigrate.Moved
	e.okData(content, docmigrate.MigratePath, docmigrate.Move{WorkspaceID: "ws1", OrganizationID: "o1", DocumentID: "d2", NewDocumentID: "d7", MigrationID: "m1"}, &moved)
	if got := e.search(ws1, map[string]any{"query": "citation", "organizationId": "o1", "documentId": "d7"}); moved.Moved != 3 || sortedIDs(got.Results) != "s4,s5,s6" {
		t.Fatalf("after migrating %d: %s", moved.Moved, ids(got.Results))
	}

	// A restart on a fresh Redis: the vectors are still in Qdrant.
	e.svc.Close()
	e.Redis = testenv.Redis(t)
	e.start(cfg)
	if got := e.search(ws1, map[string]any{"query": "citation missing", "limit": 50}); len(got.Results) != 7 {
		t.Fatalf("after restart: %s", ids(got.Results))
	}
}
