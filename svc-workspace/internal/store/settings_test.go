package store_test

import (
	"context"
	"errors"
	"maps"
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/features"
	"github.com/opencollab/backend/svc-workspace/internal/workspace"
)

func TestFeatureSwitches(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	w := workspace.Workspace{ID: "ws_1", APIKey: "ak_1", Name: "one", CreatedAt: time.Now().UTC().Truncate(time.Millisecond)}
	if err := s.InsertWorkspace(ctx, w); err != nil {
		t.Fatal(err)
	}
	got, err := s.WorkspaceByID(ctx, "ws_1")
	if err != nil {
		t.Fatal(err)
	}
	if got.APIKey != "ak_1" || len(got.Switches) != 0 {
		t.Fatalf("new workspace: %+v, want no switches set", got)
	}

	steps := []struct {
		set  map[features.Name]bool
		want map[features.Name]bool
	}{
		{map[features.Name]bool{features.ActivityService: false}, map[features.Name]bool{features.ActivityService: false}},
		{map[features.Name]bool{features.AdvancedQueries: true, features.ActivityService: true},
			map[features.Name]bool{features.ActivityService: true, features.AdvancedQueries: true}},
		{map[features.Name]bool{features.AdvancedWebhooks: false},
			map[features.Name]bool{features.ActivityService: true, features.AdvancedQueries: true, features.AdvancedWebhooks: false}},
	}
	for i, st := range steps {
		updated, err := s.SetFeatureSwitches(ctx, "ws_1", st.set)
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(updated.Switches, st.want) || updated.APIKey != "ak_1" {
			t.Fatalf("step %d: update returned %+v, want switches %v", i, updated, st.want)
		}
		byKey, err := s.WorkspaceByAPIKey(ctx, "ak_1")
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(byKey.Switches, st.want) {
			t.Fatalf("step %d: stored switches %v, want %v", i, byKey.Switches, st.want)
		}
	}

	if _, err := s.WorkspaceByID(ctx, "ws_missing"); !errors.Is(err, workspace.ErrNotFound) {
		t.Fatalf("unknown id: err = %v, want ErrNotFound", err)
	}
	if _, err := s.SetFeatureSwitches(ctx, "ws_missing", map[features.Name]bool{features.ActivityService: false}); !errors.Is(err, workspace.ErrNotFound) {
		t.Fatalf("update of unknown id: err = %v, want ErrNotFound", err)
	}
}

// TestSaveDomainsIsCompareAndSwap: a write from a version the list has
// left is ErrConflict, a missing workspace ErrNotFound.
func TestSaveDomainsIsCompareAndSwap(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	if err := s.InsertWorkspace(ctx, workspace.Workspace{ID: "ws_1", APIKey: "ak_1", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveDomains(ctx, "ws_1", 0, []string{"a.example"}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveDomains(ctx, "ws_1", 0, []string{"b.example"}); !errors.Is(err, workspace.ErrConflict) {
		t.Fatalf("second write from version 0: %v, want ErrConflict", err)
	}
	if err := s.SaveDomains(ctx, "ws_1", 1, []string{"a.example", "c.example"}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveDomains(ctx, "ws_1", 1, nil); !errors.Is(err, workspace.ErrConflict) {
		t.Fatalf("write from version 1 after version 2: %v, want ErrConflict", err)
	}
	w, err := s.WorkspaceByID(ctx, "ws_1")
	if err != nil || w.DomainsVersion != 2 || len(w.Domains) != 2 || w.Domains[1] != "c.example" {
		t.Fatalf("stored: %+v, %v", w, err)
	}
	if err := s.SaveDomains(ctx, "ws_missing", 0, nil); !errors.Is(err, workspace.ErrNotFound) {
		t.Fatalf("missing workspace: %v", err)
	}
}
