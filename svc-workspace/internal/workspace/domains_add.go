package workspace

import (
	"context"
	"slices"

	"github.com/opencollab/backend/pkg/api"
)

// AddDomains adds entries (normalized, pkg/origins) to the workspace's
// allowed domains; those already there are skipped. A malformed entry or a
// list growing past MaxDomains refuses the request with nothing written.
func (s *Service) AddDomains(ctx context.Context, workspaceID string, entries []string) (DomainsChange, error) {
	wanted, err := normalizeDomains(entries)
	if err != nil {
		return DomainsChange{}, err
	}
	return s.changeDomains(ctx, workspaceID, func(current []string) ([]string, DomainsChange, error) {
		var ch DomainsChange
		for _, d := range wanted {
			if slices.Contains(current, d) {
				ch.Skipped = append(ch.Skipped, d)
			} else {
				ch.Changed = append(ch.Changed, d)
			}
		}
		if n := len(current) + len(ch.Changed); n > MaxDomains {
			return nil, DomainsChange{}, api.Errorf(api.InvalidArgument,
				"field domains: the workspace would have %d allowed domains; at most %d (delete some first)", n, MaxDomains)
		}
		return append(slices.Clone(current), ch.Changed...), ch, nil
	})
}
