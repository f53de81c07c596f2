package svcmemory_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/opencollab/backend/pkg/docmigrate"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/service"
	svcmemory "github.com/opencollab/backend/svc-memory"
)

func TestConfigValidate(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("s", 16)
	tests := []struct {
		name    string
		cfg     svcmemory.Config
		wantErr bool
	}{
		{"minimal", svcmemory.Config{Base: service.Base{InternalSecret: long}, EmbeddingDim: 256}, false},
		{"short secret", svcmemory.Config{Base: service.Base{InternalSecret: long[:15]}, EmbeddingDim: 256}, true},
		{"no dimension", svcmemory.Config{Base: service.Base{InternalSecret: long}}, true},
		{"embeddings without model", svcmemory.Config{Base: service.Base{InternalSecret: long}, EmbeddingDim: 256, EmbeddingsBaseURL: "http://e"}, true},
		{"chat without model", svcmemory.Config{Base: service.Base{InternalSecret: long}, EmbeddingDim: 256, ChatBaseURL: "http://c"}, true},
		{"threshold above 1", svcmemory.Config{Base: service.Base{InternalSecret: long}, EmbeddingDim: 256, MinSimilarity: 1.5}, true},
		{"coverage below 0", svcmemory.Config{Base: service.Base{InternalSecret: long}, EmbeddingDim: 256, MinCoverage: -0.1}, true},
		{"unknown retrieval", svcmemory.Config{Base: service.Base{InternalSecret: long}, EmbeddingDim: 256, Retrieval: "semantic"}, true},
		{"lexical retrieval", svcmemory.Config{Base: service.Base{InternalSecret: long}, EmbeddingDim: 256, Retrieval: "lexical"}, false},
		{"full", svcmemory.Config{Base: service.Base{InternalSecret: long}, EmbeddingDim: 1536, EmbeddingsBaseURL: "http://e", EmbeddingsModel: "m",
			ChatBaseURL: "http://c", ChatModel: "m", MinSimilarity: 0.4}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.cfg.Validate(); (err != nil) != tt.wantErr {
				t.Fatalf("Validate() = %v, wantErr %v", err, tt.wantErr)
			}
		})
	}
	if err := (&svcmemory.Config{}).ValidateStores(); err == nil {
		t.Fatal("ValidateStores accepted empty store addresses")
	}
}

func TestWrongPrincipal(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcmemory.Config{})
	move := docmigrate.Move{WorkspaceID: "ws1", OrganizationID: "o1", DocumentID: "d1", NewDocumentID: "d2", MigrationID: "m1"}
	tests := []struct {
		name, principal, path string
		data                  any
	}{
		{"service searches", content, "/v2/memory/search", map[string]any{"query": "x"}},
		{"operator lists agents", internalauth.Operator, "/v2/agents/get", map[string]any{}},
		{"workspace migrates", ws1, docmigrate.MigratePath, move},
		{"workspace asks has-data", ws1, docmigrate.HasDataPath, move},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e.fails(tt.principal, tt.path, tt.data, http.StatusForbidden, "PERMISSION_DENIED")
		})
	}
	req := httptest.NewRequest(http.MethodPost, "/v2/memory/search", strings.NewReader(`{"data":{"query":"x"}}`))
	rec := httptest.NewRecorder()
	e.H.ServeHTTP(rec, req)
	if rec.Code != http.StatusForbidden {
		t.Fatalf("unsigned request: HTTP %d", rec.Code)
	}
}
