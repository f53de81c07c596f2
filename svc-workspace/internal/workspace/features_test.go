package workspace

import (
	"maps"
	"testing"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/features"
)

func TestFeatureSetOf(t *testing.T) {
	tests := []struct {
		name     string
		switches map[features.Name]bool
		want     map[features.Name]bool
	}{
		{"never set: all enabled", nil, map[features.Name]bool{
			features.ActivityService: true, features.NotificationConfig: true, features.AdvancedQueries: true, features.AdvancedWebhooks: true}},
		{"one off", map[features.Name]bool{features.AdvancedQueries: false}, map[features.Name]bool{
			features.ActivityService: true, features.NotificationConfig: true, features.AdvancedQueries: false, features.AdvancedWebhooks: true}},
		{"stored name no longer known is not reported", map[features.Name]bool{"retired": false, features.ActivityService: true}, map[features.Name]bool{
			features.ActivityService: true, features.NotificationConfig: true, features.AdvancedQueries: true, features.AdvancedWebhooks: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := featureSetOf(Workspace{ID: "ws_1", APIKey: "ak_1", Switches: tt.switches})
			if got.WorkspaceID != "ws_1" || got.APIKey != "ak_1" || !maps.Equal(got.Features, tt.want) {
				t.Fatalf("featureSetOf = %+v, want features %v", got, tt.want)
			}
		})
	}
}

func TestParseSwitches(t *testing.T) {
	tests := []struct {
		name    string
		in      map[string]bool
		want    map[features.Name]bool
		wantErr bool
	}{
		{"known names", map[string]bool{"activityService": false, "advancedWebhooks": true},
			map[features.Name]bool{features.ActivityService: false, features.AdvancedWebhooks: true}, false},
		{"unknown name", map[string]bool{"activityService": false, "ActivityService": true}, nil, true},
		{"empty", map[string]bool{}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseSwitches(tt.in)
			if tt.wantErr {
				if !api.IsStatus(err, api.InvalidArgument) {
					t.Fatalf("err = %v, want INVALID_ARGUMENT", err)
				}
				return
			}
			if err != nil || !maps.Equal(got, tt.want) {
				t.Fatalf("parseSwitches = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}
