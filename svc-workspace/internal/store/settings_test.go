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
