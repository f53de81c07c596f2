package publicaddr_test

import (
	"net/netip"
	"testing"

	"github.com/opencollab/backend/svc-workspace/internal/publicaddr"
)

func TestIsPublicHost(t *testing.T) {
	refused := []string{
		"127.0.0.1", "127.1.2.3", "localhost", "LOCALHOST.", "api.localhost", "10.0.0.1", "172.16.5.4",
		"192.168.1.1", "169.254.169.254", "100.64.0.1", "100.127.255.254", "0.0.0.0", "[::1]", "::1",
		"fd00::1", "[fd12:3456::1]", "fe80::1", "[fe80::1%25eth0]", "::ffff:127.0.0.1", "64:ff9b::a00:1",
		"2002:a00:1::", "2130706433", "0x7f.1", "017700000001", "224.0.0.1",
	}
	for _, h := range refused {
		if publicaddr.IsPublicHost(h) {
			t.Errorf("IsPublicHost(%q) = true, want refused", h)
		}
	}
	allowed := []string{"hooks.example.com", "8.8.8.8", "[2606:4700::1111]", "cafe", "1.example", "100.128.0.1", "deadbeef.io"}
	for _, h := range allowed {
		if !publicaddr.IsPublicHost(h) {
			t.Errorf("IsPublicHost(%q) = false, want allowed", h)
		}
	}
}

func TestIsPublic(t *testing.T) {
	cases := map[string]bool{
		"8.8.8.8": true, "1.1.1.1": true, "2606:4700:4700::1111": true, "100.128.0.1": true,
		"127.0.0.1": false, "127.8.9.10": false, "::1": false, "10.1.2.3": false, "172.16.0.1": false,
		"172.31.255.255": false, "192.168.1.1": false, "169.254.169.254": false, "fe80::1": false,
		"fc00::1": false, "fd12::1": false, "0.0.0.0": false, "::": false, "100.64.0.1": false,
		"224.0.0.1": false, "ff02::1": false, "255.255.255.255": false, "::ffff:127.0.0.1": false,
		"::ffff:10.0.0.1": false, "64:ff9b::a00:1": false, "64:ff9b::808:808": true,
		"2002:7f00:1::": false, "2002:808:808::": true, "198.18.0.1": false,
	}
	for addr, want := range cases {
		if got := publicaddr.IsPublic(netip.MustParseAddr(addr)); got != want {
			t.Errorf("IsPublic(%s) = %v, want %v", addr, got, want)
		}
	}
}
