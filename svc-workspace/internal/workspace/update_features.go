package workspace

import (
	"context"
	"errors"
	"fmt"
)

// UpdateFeatures sets the given feature switches of apiKey's workspace (the
// others keep their values) and returns every feature's effective value.
// Services cache switches for a few seconds, so a change takes effect
// within that time.
func (s *Service) UpdateFeatures(ctx context.Context, apiKey string, switches map[string]bool) (FeatureSet, error) {
	parsed, err := parseSwitches(switches)
	if err != nil {
		return FeatureSet{}, err
	}
	w, err := s.workspaceOf(ctx, apiKey)
	if err != nil {
		return FeatureSet{}, err
	}
	updated, err := s.store.SetFeatureSwitches(ctx, w.ID, parsed)
	if errors.Is(err, ErrNotFound) {
		return FeatureSet{}, errUnknownAPIKey
	}
	if err != nil {
		return FeatureSet{}, fmt.Errorf("set feature switches: %w", err)
	}
	return featureSetOf(updated), nil
}
