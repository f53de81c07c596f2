package locations

import (
	"context"
	"math"
	"strconv"
	"strings"

	"github.com/opencollab/backend/pkg/api"
)

// Update is one locations/update request.
type Update struct {
	WorkspaceID    string // from the signed request
	APIKey         string // from data: must name WorkspaceID
	AuthToken      string // from data: a live token of WorkspaceID
	OrganizationID string
	DocumentID     string
	OldLocation    map[string]any // must carry the id of a stored location
	NewLocation    map[string]any
	Merge          bool
}

// Update checks the in-body credentials, then merges (Merge) or replaces
// the stored location named by OldLocation's id. NOT_FOUND when no
// annotation of the document carries that location.
func (s *Service) Update(ctx context.Context, u Update) error {
	oldID, err := locationID(u.OldLocation)
	if err != nil {
		return err
	}
	if err := s.checkCredentials(ctx, u.WorkspaceID, u.APIKey, u.AuthToken); err != nil {
		return err
	}
	matched, err := s.rewriter.RewriteLocation(ctx, u.WorkspaceID, u.OrganizationID, u.DocumentID, oldID, u.NewLocation, u.Merge)
	if err != nil {
		return err
	}
	if matched == 0 {
		return api.Errorf(api.NotFound, "no location with id %q in document %q", oldID, u.DocumentID)
	}
	return nil
}

// locationID reads a location's id: a non-empty string, or a whole number
// (passed on in decimal).
func locationID(loc map[string]any) (string, error) {
	switch id := loc["id"].(type) {
	case string:
		if strings.TrimSpace(id) != "" {
			return id, nil
		}
	case float64:
		if id == math.Trunc(id) && !math.IsInf(id, 0) {
			return strconv.FormatFloat(id, 'f', -1, 64), nil
		}
	case nil:
		return "", api.Errorf(api.InvalidArgument, "field migrate.oldLocation.id is required")
	}
	return "", api.Errorf(api.InvalidArgument, "field migrate.oldLocation.id must be a non-empty string or a whole number")
}
