package workspace

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/origins"
)

// MaxDomains bounds a workspace's allowed domains: each realtime upgrade
// of the workspace is matched against the whole list.
const MaxDomains = 100

// saveAttempts bounds the compare-and-swap retries of one change; each
// retry means another writer changed the list in between.
const saveAttempts = 8

// DomainsChange is what domains/add or domains/delete did: the entries
// changed and those skipped (already there, or not there), both
// normalized.
type DomainsChange struct {
	Changed []string
	Skipped []string
}

// normalizeDomains normalizes every entry, dropping repeats; a bad entry
// refuses the whole request.
func normalizeDomains(entries []string) ([]string, error) {
	out := make([]string, 0, len(entries))
	for i, e := range entries {
		n, err := origins.Normalize(e)
		if err != nil {
			return nil, api.Errorf(api.InvalidArgument, "field domains[%d] (%q) %v", i, e, err)
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out, nil
}

// changeDomains applies edit to the stored list until the write lands on
// the version it read. edit returns the new list and what it did.
func (s *Service) changeDomains(ctx context.Context, workspaceID string, edit func(current []string) ([]string, DomainsChange, error)) (DomainsChange, error) {
	s.domainsMu.Lock()
	defer s.domainsMu.Unlock()
	for range saveAttempts {
		w, err := s.store.WorkspaceByID(ctx, workspaceID)
		if errors.Is(err, ErrNotFound) {
			return DomainsChange{}, api.Errorf(api.NotFound, "workspace not found")
		}
		if err != nil {
			return DomainsChange{}, fmt.Errorf("find workspace: %w", err)
		}
		next, change, err := edit(w.Domains)
		if err != nil || len(change.Changed) == 0 {
			return change, err
		}
		err = s.store.SaveDomains(ctx, workspaceID, w.DomainsVersion, next)
		if errors.Is(err, ErrConflict) {
			continue
		}
		if err != nil {
			return DomainsChange{}, fmt.Errorf("save allowed domains: %w", err)
		}
		return change, nil
	}
	return DomainsChange{}, api.Errorf(api.Unavailable, "the allowed domains are being changed concurrently; retry")
}
