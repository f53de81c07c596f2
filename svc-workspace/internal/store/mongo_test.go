package store_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/service/servicetest"
	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-workspace/internal/store"
	"github.com/opencollab/backend/svc-workspace/internal/workspace"
)

func newStore(t *testing.T) *store.Mongo {
	return servicetest.Indexed(t, store.NewMongo(testenv.Mongo(t)))
}

func TestWorkspaces(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	now := time.Now().UTC().Truncate(time.Millisecond)
	w := workspace.Workspace{ID: "ws_1", APIKey: "ak_1", Name: "one", CreatedAt: now}
	if err := s.InsertWorkspace(ctx, w); err != nil {
		t.Fatal(err)
	}

	got, err := s.WorkspaceByAPIKey(ctx, "ak_1")
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != w.ID || got.APIKey != w.APIKey || got.Name != w.Name || !got.CreatedAt.Equal(w.CreatedAt) {
		t.Fatalf("got %+v, want %+v", got, w)
	}
	if _, err := s.WorkspaceByAPIKey(ctx, "ak_missing"); !errors.Is(err, workspace.ErrNotFound) {
		t.Fatalf("unknown key: err = %v, want ErrNotFound", err)
	}

	dups := []workspace.Workspace{
		{ID: "ws_2", APIKey: "ak_1", CreatedAt: now}, // same API key
		{ID: "ws_1", APIKey: "ak_2", CreatedAt: now}, // same id
	}
	for _, d := range dups {
		if err := s.InsertWorkspace(ctx, d); !errors.Is(err, workspace.ErrDuplicate) {
			t.Fatalf("insert %+v: err = %v, want ErrDuplicate", d, err)
		}
	}
}

func TestTokens(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	now := time.Now().UTC()

	steps := []struct {
		name   string
		run    func() error
		want   error
		hashes []string // live hashes of ws_a afterwards
	}{
		{"add first", func() error { return s.AddToken(ctx, "ws_a", "h1", now) }, nil, []string{"h1"}},
		{"add second", func() error { return s.AddToken(ctx, "ws_a", "h2", now.Add(time.Second)) }, nil, []string{"h1", "h2"}},
		{"add again is a no-op", func() error { return s.AddToken(ctx, "ws_a", "h1", now) }, nil, []string{"h1", "h2"}},
		{"hash of another workspace", func() error { return s.AddToken(ctx, "ws_b", "h1", now) }, workspace.ErrDuplicate, []string{"h1", "h2"}},
		{"revoke of another workspace", func() error { return s.RevokeToken(ctx, "ws_b", "h1") }, workspace.ErrNotFound, []string{"h1", "h2"}},
		{"revoke", func() error { return s.RevokeToken(ctx, "ws_a", "h1") }, nil, []string{"h2"}},
		{"revoke again", func() error { return s.RevokeToken(ctx, "ws_a", "h1") }, workspace.ErrNotFound, []string{"h2"}},
		{"revoke last", func() error { return s.RevokeToken(ctx, "ws_a", "h2") }, nil, []string{}},
	}
	for _, st := range steps {
		if err := st.run(); !errors.Is(err, st.want) {
			t.Fatalf("%s: err = %v, want %v", st.name, err, st.want)
		}
		got, err := s.TokenHashes(ctx, "ws_a")
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if !slices.Equal(got, st.hashes) {
			t.Fatalf("%s: hashes = %v, want %v", st.name, got, st.hashes)
		}
	}
	if got, _ := s.TokenHashes(ctx, "ws_b"); len(got) != 0 {
		t.Fatalf("ws_b got tokens %v", got)
	}
}
