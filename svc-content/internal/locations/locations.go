// Package locations changes the locations stored on a document's comment
// annotations (/v1/organizations/documents/locations/update). The
// annotations own the location objects; this package checks the request's
// in-body credentials and asks a Rewriter to replace or merge the location.
package locations

import (
	"context"
)

// Rewriter changes the location with id oldID on every annotation of the
// document: merge true sets newLoc's fields on the stored object, false
// replaces the object. matched is how many annotations carried it.
type Rewriter interface {
	RewriteLocation(ctx context.Context, workspaceID, orgID, docID, oldID string, newLoc map[string]any, merge bool) (matched int64, err error)
}

// CredentialLookup resolves an API key to its workspace and the SHA-256
// hex hashes of its live auth tokens; NOT_FOUND for an unknown key.
type CredentialLookup interface {
	LookupCredentials(ctx context.Context, apiKey string) (Credentials, error)
}

// Credentials is the answer of a CredentialLookup.
type Credentials struct {
	WorkspaceID string   `json:"workspaceId"`
	TokenHashes []string `json:"tokenHashes"`
}

// Service runs the location operations.
type Service struct {
	creds    CredentialLookup
	rewriter Rewriter
}

// NewService returns a service checking credentials with creds and
// changing locations through rw.
func NewService(creds CredentialLookup, rw Rewriter) *Service {
	return &Service{creds: creds, rewriter: rw}
}

// NoLocations is the Rewriter of a build whose annotations cannot rewrite
// locations yet: no location is ever found.
type NoLocations struct{}

// RewriteLocation matches nothing.
func (NoLocations) RewriteLocation(context.Context, string, string, string, string, map[string]any, bool) (int64, error) {
	return 0, nil
}
