package delivery

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"

	"github.com/opencollab/backend/svc-workspace/internal/publicaddr"
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
		"refused unless private targets are allowed (%s)", e.addr, publicaddr.Setting)
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
	if !publicaddr.IsPublic(addr) {
		return &blockedAddrError{addr: addr}
	}
	return nil
}

// refusedTarget returns the refusal behind a failed request, if any.
func refusedTarget(err error) (*blockedAddrError, bool) {
	var b *blockedAddrError
	ok := errors.As(err, &b)
	return b, ok
}
