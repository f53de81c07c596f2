// Package publicaddr decides which addresses webhooks may be sent to: only
// public ones, unless an operator allows private targets. Both the
// endpoint settings (a URL naming a non-public IP or localhost is refused
// when it is set) and the delivery client (every address actually dialed,
// after DNS resolution, so a name rebound to a private address is refused
// too) use it.
package publicaddr

import (
	"net/netip"
	"strings"
)

// Setting is the environment setting that allows non-public targets.
const Setting = "WEBHOOK_ALLOW_PRIVATE_TARGETS"

// nonPublic lists ranges netip has no predicate for.
var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),   // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("192.0.2.0/24"),    // documentation
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("198.51.100.0/24"), // documentation
	netip.MustParsePrefix("203.0.113.0/24"),  // documentation
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, broadcast
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
	netip.MustParsePrefix("100::/64"),        // discard
}

// IPv6 ranges that carry an IPv4 address, which is checked in turn: NAT64
// in the last 32 bits, 6to4 in bits 16–47.
var (
	nat64     = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour = netip.MustParsePrefix("2002::/16")
)

// IsPublic reports whether addr may be a delivery target: not loopback,
// private (10/8, 172.16/12, 192.168/16, fc00::/7), link-local (169.254/16
// with the cloud metadata address, fe80::/10), carrier-grade NAT,
// multicast, unspecified or reserved.
func IsPublic(addr netip.Addr) bool {
	addr = addr.Unmap()
	if b := addr.As16(); nat64.Contains(addr) {
		return IsPublic(netip.AddrFrom4([4]byte(b[12:])))
	} else if sixToFour.Contains(addr) {
		return IsPublic(netip.AddrFrom4([4]byte(b[2:6])))
	}
	if addr.IsLoopback() || addr.IsPrivate() || addr.IsLinkLocalUnicast() || addr.IsLinkLocalMulticast() ||
		addr.IsInterfaceLocalMulticast() || addr.IsMulticast() || addr.IsUnspecified() {
		return false
	}
	for _, p := range nonPublic {
		if p.Contains(addr) {
			return false
		}
	}
	return true
}

// IsPublicHost reports whether the host of a URL (a name, or an IP literal
// with or without brackets and zone) can be a public target as written.
// Names other than localhost pass: what they resolve to is checked at
// every delivery, as DNS answers change.
func IsPublicHost(host string) bool {
	h := strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return false
	}
	if i := strings.IndexByte(h, '%'); i >= 0 { // a zone: link-local by nature
		return false
	}
	addr, err := netip.ParseAddr(h)
	if err != nil {
		return !legacyIPv4(h)
	}
	return IsPublic(addr)
}

// legacyIPv4 reports whether h is a number-only host that resolvers read
// as an IPv4 address (e.g. "2130706433" or "0x7f.1"): such hosts are
// refused rather than interpreted.
func legacyIPv4(h string) bool {
	if h == "" {
		return false
	}
	for _, part := range strings.Split(h, ".") {
		if part == "" {
			return false
		}
		p := strings.TrimPrefix(part, "0x")
		for _, c := range p {
			if !strings.ContainsRune("0123456789abcdef", c) {
				return false
			}
		}
		if p == part && strings.ContainsAny(part, "abcdef") {
			return false // hex digits without 0x: an ordinary label such as "cafe"
		}
	}
	return true
}
