package webhook

import (
	"net/netip"
	"net/url"
	"strings"
	"testing"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/svc-workspace/internal/publicaddr"
)

func TestNonPublicTargetsAreRefusedNamingTheSetting(t *testing.T) {
	strict, lenient := &Service{}, &Service{allowPrivate: true}
	for _, u := range []string{
		"http://127.0.0.1/hook", "http://localhost:8080/", "https://169.254.169.254/latest/meta-data",
		"http://10.0.0.1/", "http://[fd00::1]/", "http://100.64.0.1/", "http://[::1]:9000/", "http://192.168.0.10/",
	} {
		err := strict.checkTarget(u)
		if !api.IsStatus(err, api.InvalidArgument) || !strings.Contains(err.Error(), "WEBHOOK_ALLOW_PRIVATE_TARGETS") {
			t.Errorf("%s: %v, want INVALID_ARGUMENT naming WEBHOOK_ALLOW_PRIVATE_TARGETS", u, err)
		}
		if err := lenient.checkTarget(u); err != nil {
			t.Errorf("%s with private targets allowed: %v", u, err)
		}
	}
	for _, u := range []string{"https://hooks.example.com/in", "https://8.8.8.8/x", "http://[2606:4700::1111]/"} {
		if err := strict.checkTarget(u); err != nil {
			t.Errorf("%s: %v, want accepted", u, err)
		}
	}
}

// FuzzEndpointURL feeds outside strings through the checks an endpoint URL
// passes at create and update: a refusal is INVALID_ARGUMENT, never a
// panic; an accepted URL names no literal non-public address.
func FuzzEndpointURL(f *testing.F) {
	for _, seed := range []string{
		"https://hooks.example.com/in", "http://127.0.0.1:8080/", "http://[fe80::1%25eth0]/", "http://0x7f.1/",
		"http://2130706433/", "https://user:pw@[::ffff:10.0.0.1]:443/p?q#f", "ftp://x", "http://%zz", "",
	} {
		f.Add(seed)
	}
	strict := &Service{}
	f.Fuzz(func(t *testing.T, raw string) {
		err := validateURL(raw)
		if err == nil {
			err = strict.checkTarget(raw)
		}
		if err != nil && !api.IsStatus(err, api.InvalidArgument) {
			t.Fatalf("url %q: %v, want INVALID_ARGUMENT", raw, err)
		}
		if err != nil {
			return
		}
		u, perr := url.Parse(raw)
		if perr != nil {
			t.Fatalf("url %q was accepted but does not parse: %v", raw, perr)
		}
		host := strings.ToLower(u.Hostname())
		if addr, aerr := netip.ParseAddr(host); (aerr == nil && !publicaddr.IsPublic(addr)) || host == "localhost" {
			t.Fatalf("url %q naming the non-public host %q was accepted", raw, host)
		}
	})
}
