package pagetoken

import (
	"context"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/opencollab/backend/pkg/api"
)

func TestTokenIsBoundToWorkspaceAndQuery(t *testing.T) {
	mr := miniredis.RunT(t)
	s := New(redis.NewClient(&redis.Options{Addr: mr.Addr()}), 0)
	ctx := context.Background()
	q := QueryKey("users/get", map[string]any{"organizationId": "o1"})
	tok, err := s.Save(ctx, "ws1", q, "cursor-1")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s.Load(ctx, "ws1", q, tok); err != nil || got != "cursor-1" {
		t.Fatalf("Load = %q, %v", got, err)
	}
	otherQuery := QueryKey("users/get", map[string]any{"organizationId": "o2"})
	for name, load := range map[string]func() error{
		"other workspace": func() error { _, err := s.Load(ctx, "ws2", q, tok); return err },
		"other query":     func() error { _, err := s.Load(ctx, "ws1", otherQuery, tok); return err },
		"unknown token":   func() error { _, err := s.Load(ctx, "ws1", q, "nope"); return err },
	} {
		if err := load(); !api.IsStatus(err, api.InvalidArgument) {
			t.Errorf("%s: err = %v, want INVALID_ARGUMENT", name, err)
		}
	}
	if q == QueryKey("orgs/get", map[string]any{"organizationId": "o1"}) {
		t.Fatal("scope must change the query key")
	}
}
