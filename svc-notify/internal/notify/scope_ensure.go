package notify

import "context"

// ScopeEnsurer creates the organization and document of an add when its
// caller asks (createOrganization, createDocument): svc-identity's
// (pkg/docscope.Client). Without svc-identity the flags have no effect.
type ScopeEnsurer interface {
	Ensure(ctx context.Context, ws, org, doc string, createOrg, createDoc bool) error
}

// WithScope sets who creates the organizations and documents adds ask for.
func (s *Service) WithScope(e ScopeEnsurer) *Service {
	s.scope = e
	return s
}

// EnsureScope honours an add's createOrganization and createDocument: n is
// checked first, so an add refused for its input creates nothing, and the
// document exists before a verified add asks who has access to it. An add
// without the flags is not checked here (Add checks it).
func (s *Service) EnsureScope(ctx context.Context, ws string, n Notification, createOrg, createDoc bool) error {
	if !createOrg && !createDoc {
		return nil
	}
	if err := validateNew(n); err != nil {
		return err
	}
	if s.scope == nil {
		return nil
	}
	return s.scope.Ensure(ctx, ws, n.OrganizationID, n.DocumentID, createOrg, createDoc)
}
