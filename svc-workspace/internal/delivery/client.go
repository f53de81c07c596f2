package delivery

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"
)

// maxResponseBytes bounds how much of a receiver's reply is read; the
// rest is dropped with the connection.
const maxResponseBytes = 64 << 10

// newClient returns the HTTP client deliveries go through. Unless
// allowPrivate, it refuses to connect to loopback, private, link-local and
// other non-public addresses (SSRF): the check runs on the address actually
// dialed, after DNS resolution, so a name that resolves (or re-resolves) to
// such an address is refused too. Environment proxies are not used — they
// would hide the real target — and redirects are not followed (a 3xx is a
// failed attempt, §14).
func newClient(allowPrivate bool) *http.Client {
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	if !allowPrivate {
		dialer.Control = refusePrivate
	}
	return &http.Client{
		Transport: &http.Transport{
			Proxy:               nil,
			DialContext:         dialer.DialContext,
			ForceAttemptHTTP2:   true,
			MaxIdleConns:        256,
			MaxIdleConnsPerHost: 32,
			IdleConnTimeout:     90 * time.Second,
			TLSHandshakeTimeout: 10 * time.Second,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// blockedAddrError is a refused target address.
type blockedAddrError struct{ addr netip.Addr }

func (e *blockedAddrError) Error() string {
	return fmt.Sprintf("target address %s is not public (loopback, private, link-local or reserved); "+
		"refused unless private targets are allowed (WEBHOOK_ALLOW_PRIVATE_TARGETS)", e.addr)
}

func refusePrivate(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return fmt.Errorf("unexpected dial address %q: %w", address, err)
	}
	if !isPublic(addr) {
		return &blockedAddrError{addr: addr}
	}
	return nil
}

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

// isPublic reports whether addr may be a delivery target.
func isPublic(addr netip.Addr) bool {
	addr = addr.Unmap()
	if b := addr.As16(); nat64.Contains(addr) {
		return isPublic(netip.AddrFrom4([4]byte(b[12:])))
	} else if sixToFour.Contains(addr) {
		return isPublic(netip.AddrFrom4([4]byte(b[2:6])))
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

// refusedTarget returns the refusal behind a failed request, if any.
func refusedTarget(err error) (*blockedAddrError, bool) {
	var b *blockedAddrError
	ok := errors.As(err, &b)
	return b, ok
}
