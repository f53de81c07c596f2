// Package origins is the format of a workspace's allowed domains
// (/v2/workspace/domains/add|delete): how svc-workspace normalizes an entry
// before storing it, and how a realtime endpoint matches a browser's Origin
// header against the stored list. Both sides use this one definition so
// what is stored is exactly what is matched.
package origins

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// MaxEntryLength bounds one entry (a DNS name is at most 253 characters,
// plus a port).
const MaxEntryLength = 260

// Normalize turns an entry as a customer writes it ("https://www.app.com",
// "app.com", "*.firebase.com", "http://localhost:3000") into the stored
// form: lower case, no scheme, no "www.", no trailing slash, host with an
// optional port. As the hosted product's answers show, "https://www.google.com"
// is stored as "google.com". A path, query, credentials, a scheme other
// than http(s) or a malformed host is refused with the reason.
func Normalize(entry string) (string, error) {
	s := strings.ToLower(strings.TrimSpace(entry))
	if s == "" {
		return "", errors.New("is empty")
	}
	if len(s) > MaxEntryLength {
		return "", fmt.Errorf("is longer than %d characters", MaxEntryLength)
	}
	if scheme, rest, ok := strings.Cut(s, "://"); ok {
		if scheme != "http" && scheme != "https" {
			return "", fmt.Errorf("has scheme %q; only http and https origins reach the realtime endpoints", scheme)
		}
		s = rest
	}
	s = strings.TrimSuffix(s, "/")
	if i := strings.IndexAny(s, "/?#@"); i >= 0 {
		return "", fmt.Errorf("contains %q: give a domain (with an optional port), not a URL with a path", s[i])
	}
	host, port := splitPort(s)
	if port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return "", fmt.Errorf("has port %q; a port is 1 to 65535", port)
		}
	}
	host = strings.TrimPrefix(host, "www.")
	if err := checkHost(host); err != nil {
		return "", err
	}
	if port != "" {
		return host + ":" + port, nil
	}
	return host, nil
}

// splitPort splits "host:port" ("[::1]:8080" for IPv6); port is "" when
// there is none.
func splitPort(s string) (host, port string) {
	if strings.HasPrefix(s, "[") {
		if end := strings.Index(s, "]"); end >= 0 {
			host, rest := s[:end+1], s[end+1:]
			return host, strings.TrimPrefix(rest, ":")
		}
		return s, ""
	}
	if i := strings.LastIndexByte(s, ':'); i >= 0 {
		return s[:i], s[i+1:]
	}
	return s, ""
}

// checkHost accepts a DNS name, optionally starting with one "*." label
// (any subdomain), or a bracketed IPv6 literal.
func checkHost(host string) error {
	if strings.HasPrefix(host, "[") {
		if !strings.HasSuffix(host, "]") || strings.Trim(host[1:len(host)-1], "0123456789abcdef:.") != "" {
			return fmt.Errorf("has a malformed IPv6 address %q", host)
		}
		return nil
	}
	name := strings.TrimPrefix(host, "*.")
	if name == "" {
		return errors.New("has no domain name")
	}
	for label := range strings.SplitSeq(name, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return fmt.Errorf("has a malformed domain name %q", host)
		}
		for _, c := range label {
			if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '-' {
				return fmt.Errorf("has a malformed domain name %q (%q is not allowed; a wildcard is only \"*.\" at the start)", host, c)
			}
		}
	}
	return nil
}

// Allowed reports whether a browser's Origin header value is allowed by
// domains (normalized entries). An empty list allows every origin. An
// absent Origin ("") is allowed: only browsers send one, and any other
// client could send whatever it likes, so refusing its absence protects
// nothing. "null" and non-http(s) origins match no entry.
func Allowed(domains []string, origin string) bool {
	if len(domains) == 0 || origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false
	}
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	bare := strings.TrimPrefix(host, "www.")
	for _, d := range domains {
		dhost, dport := splitPort(d)
		if dport != "" && dport != port {
			continue
		}
		if hostMatches(dhost, host) || hostMatches(dhost, bare) {
			return true
		}
	}
	return false
}

// hostMatches: "*.a.com" matches any subdomain of a.com (not a.com
// itself), any other entry only itself.
func hostMatches(entry, host string) bool {
	if suffix, ok := strings.CutPrefix(entry, "*"); ok {
		return len(host) > len(suffix) && strings.HasSuffix(host, suffix)
	}
	return entry == host
}
