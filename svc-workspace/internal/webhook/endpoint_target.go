package webhook

import (
	"net/url"

	"github.com/opencollab/backend/svc-workspace/internal/publicaddr"
)

// checkTarget refuses an endpoint URL (already validated as an absolute
// http(s) URL) whose host is localhost or a non-public IP address, unless
// private targets are allowed. Names are checked again, after resolution,
// at every delivery (a DNS answer can change after this check).
func (s *Service) checkTarget(raw string) error {
	if s.allowPrivate {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return invalid("field url must be an absolute http or https URL with a host")
	}
	if !publicaddr.IsPublicHost(u.Hostname()) {
		return invalid("field url: host %q is loopback, private, link-local or otherwise not public; "+
			"such webhook targets are refused unless the operator sets %s=true", u.Hostname(), publicaddr.Setting)
	}
	return nil
}
