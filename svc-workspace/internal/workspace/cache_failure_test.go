package workspace_test

import (
	"context"
	"errors"
	"testing"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-workspace/internal/store"
	"github.com/opencollab/backend/svc-workspace/internal/workspace"
)

// flakyCache fails Invalidate while down is set and counts the calls.
type flakyCache struct {
	down  bool
	calls int
}

func (c *flakyCache) Invalidate(context.Context, string) error {
	c.calls++
	if c.down {
		return errors.New("redis down")
	}
	return nil
}

func newService(t *testing.T) (*workspace.Service, *flakyCache) {
	t.Helper()
	s := store.NewMongo(testenv.Mongo(t))
	if err := s.EnsureIndexes(context.Background()); err != nil {
		t.Fatal(err)
	}
	cache := &flakyCache{}
	return workspace.NewService(s, cache), cache
}

func liveHashes(t *testing.T, svc *workspace.Service, apiKey string) []string {
	t.Helper()
	l, err := svc.LookupCredentials(context.Background(), apiKey)
	if err != nil {
		t.Fatal(err)
	}
	return l.TokenHashes
}

func TestCreateTokenWithCacheDownTakesTheTokenBack(t *testing.T) {
	ctx := context.Background()
	svc, cache := newService(t)
	creds, err := svc.CreateWorkspace(ctx, "w")
	if err != nil {
		t.Fatal(err)
	}

	cache.down = true
	if _, err := svc.CreateToken(ctx, creds.APIKey); !api.IsStatus(err, api.Unavailable) {
		t.Fatalf("err = %v, want UNAVAILABLE", err)
	}
	if got := liveHashes(t, svc, creds.APIKey); len(got) != 1 {
		t.Fatalf("live tokens = %d, want only the first one", len(got))
	}
}

func TestResetRetryAfterCacheFailureInvalidates(t *testing.T) {
	ctx := context.Background()
	svc, cache := newService(t)
	creds, err := svc.CreateWorkspace(ctx, "w")
	if err != nil {
		t.Fatal(err)
	}

	cache.down = true
	if err := svc.ResetToken(ctx, creds.APIKey, creds.AuthToken); !api.IsStatus(err, api.Unavailable) {
		t.Fatalf("first reset: err = %v, want UNAVAILABLE", err)
	}
	if got := liveHashes(t, svc, creds.APIKey); len(got) != 0 {
		t.Fatalf("token still live after reset: %v", got)
	}

	// The operator retries: the token is gone (NOT_FOUND) but the cache
	// entry must be dropped all the same.
	cache.down = false
	before := cache.calls
	if err := svc.ResetToken(ctx, creds.APIKey, creds.AuthToken); !api.IsStatus(err, api.NotFound) {
		t.Fatalf("retry: err = %v, want NOT_FOUND", err)
	}
	if cache.calls != before+1 {
		t.Fatalf("retry did not invalidate the cache")
	}
}

func TestBootstrapRefusesAnotherWorkspacesToken(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	other, err := svc.CreateWorkspace(ctx, "other")
	if err != nil {
		t.Fatal(err)
	}
	// A bootstrap token that is already live in another workspace must not
	// silently be shared.
	if err := svc.Bootstrap(ctx, "ak_boot", other.AuthToken); err == nil {
		t.Fatal("bootstrap with another workspace's token succeeded")
	}
	if err := svc.Bootstrap(ctx, "ak_boot", "at_boot"); err != nil {
		t.Fatal(err)
	}
	got := liveHashes(t, svc, "ak_boot")
	if len(got) != 1 || got[0] != internalauth.HashToken("at_boot") {
		t.Fatalf("bootstrap hashes = %v", got)
	}
}

func TestCreateTokenStopsAtMaxLiveTokens(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	creds, err := svc.CreateWorkspace(ctx, "w")
	if err != nil {
		t.Fatal(err)
	}
	for range workspace.MaxLiveTokens - 1 {
		if _, err := svc.CreateToken(ctx, creds.APIKey); err != nil {
			t.Fatal(err)
		}
	}
	_, err = svc.CreateToken(ctx, creds.APIKey)
	if !api.IsStatus(err, api.FailedPrecondition) {
		t.Fatalf("token %d: err = %v, want FAILED_PRECONDITION", workspace.MaxLiveTokens+1, err)
	}
	if got := liveHashes(t, svc, creds.APIKey); len(got) != workspace.MaxLiveTokens {
		t.Fatalf("%d live tokens after the refusal, want %d", len(got), workspace.MaxLiveTokens)
	}
}
