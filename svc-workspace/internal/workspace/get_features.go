package workspace

import "context"

// Features returns the effective feature switches of apiKey's workspace.
func (s *Service) Features(ctx context.Context, apiKey string) (FeatureSet, error) {
	w, err := s.workspaceOf(ctx, apiKey)
	if err != nil {
		return FeatureSet{}, err
	}
	return featureSetOf(w), nil
}
