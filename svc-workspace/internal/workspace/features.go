package workspace

import (
	"maps"
	"slices"
	"strings"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/features"
)

// FeatureSet is the effective value of every feature switch of a workspace.
type FeatureSet struct {
	WorkspaceID string
	APIKey      string
	Features    map[features.Name]bool
	// AllowedDomains are the workspace's allowed web origins (the other
	// services' settings lookup carries them to the realtime endpoints).
	AllowedDomains []string
}

// featureSetOf lists every known feature of w, enabled unless an operator
// switched it off: workspaces created before a feature existed get it.
func featureSetOf(w Workspace) FeatureSet {
	all := features.All()
	effective := make(map[features.Name]bool, len(all))
	for _, f := range all {
		on, set := w.Switches[f]
		effective[f] = on || !set
	}
	return FeatureSet{WorkspaceID: w.ID, APIKey: w.APIKey, Features: effective, AllowedDomains: w.Domains}
}

// parseSwitches turns an operator's {name: bool} into switches, refusing
// unknown names (they would be stored and never read).
func parseSwitches(in map[string]bool) (map[features.Name]bool, error) {
	if len(in) == 0 {
		return nil, api.Errorf(api.InvalidArgument, "field features is required")
	}
	known := features.All()
	out := make(map[features.Name]bool, len(in))
	for _, name := range slices.Sorted(maps.Keys(in)) {
		f := features.Name(name)
		if !slices.Contains(known, f) {
			return nil, api.Errorf(api.InvalidArgument, "field features.%s: unknown feature; the features are %s", name, knownNames(known))
		}
		out[f] = in[name]
	}
	return out, nil
}

func knownNames(known []features.Name) string {
	names := make([]string, len(known))
	for i, f := range known {
		names[i] = string(f)
	}
	return strings.Join(names, ", ")
}
