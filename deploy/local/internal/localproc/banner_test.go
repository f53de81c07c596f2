package localproc

import "testing"

// The gateway's URL is found in the banner whatever pieces stdout comes
// in, and only on the banner's own "gateway <url>" line.
func TestBannerGivesTheGatewayURL(t *testing.T) {
	t.Parallel()
	b := &bannerURL{found: make(chan string, 1)}
	for _, piece := range []string{
		"\nCollaboration backend is running.\nthe gateway is starting\n\n  gate",
		"way          http://127.0.0.1:4321\n  x-svc-api-key    k\n",
		"  gateway          http://127.0.0.1:9999\n",
	} {
		if n, err := b.Write([]byte(piece)); n != len(piece) || err != nil {
			t.Fatalf("Write took %d of %d bytes, %v", n, len(piece), err)
		}
	}
	select {
	case got := <-b.found:
		if got != "http://127.0.0.1:4321" {
			t.Fatalf("found %q, want the banner's http://127.0.0.1:4321", got)
		}
	default:
		t.Fatal("no URL found in the banner")
	}
	select {
	case got := <-b.found:
		t.Fatalf("a second URL %q was sent", got)
	default:
	}
}
