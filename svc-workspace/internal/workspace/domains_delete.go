package workspace

import (
	"context"
	"slices"
)

// DeleteDomains removes entries (normalized, pkg/origins) from the
// workspace's allowed domains; those not there are skipped. Once the list
// is empty every origin may connect again.
func (s *Service) DeleteDomains(ctx context.Context, workspaceID string, entries []string) (DomainsChange, error) {
	unwanted, err := normalizeDomains(entries)
	if err != nil {
		return DomainsChange{}, err
	}
	return s.changeDomains(ctx, workspaceID, func(current []string) ([]string, DomainsChange, error) {
		var ch DomainsChange
		for _, d := range unwanted {
			if slices.Contains(current, d) {
				ch.Changed = append(ch.Changed, d)
			} else {
				ch.Skipped = append(ch.Skipped, d)
			}
		}
		next := slices.DeleteFunc(slices.Clone(current), func(d string) bool { return slices.Contains(ch.Changed, d) })
		return next, ch, nil
	})
}
